from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class HeulDochOptions(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HeulDochAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HeulDochView(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HeulDochEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
