from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class HiFuOptions(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HiFuAction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HiFuView(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class HiFuEvent(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
