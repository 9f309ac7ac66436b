"""Several service processes on one port (PARLOR_SERVICE_PROCESSES): calls
spread over them, a match moves between them as one, their metrics are served
summed, a process that dies is replaced, and SIGTERM drains them all."""

from __future__ import annotations

import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from parlor.v1 import parlor_pb2 as pb

from ..support import Stack, auth

pytestmark = pytest.mark.integration


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + "{")
               or line.startswith(name + " "))


def test_two_service_processes_share_one_port():
    stack = Stack(gateway=False, env={"PARLOR_SERVICE_PROCESSES": "2"}).start()
    try:
        supervisor = stack.procs["service"]
        deadline = time.monotonic() + 20
        while len(_children(supervisor.pid)) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        first = _children(supervisor.pid)
        channels = [stack.channel() for _ in range(8)]  # new connections: the kernel spreads them
        stubs = [stack.stub(channel) for channel in channels]
        match = stubs[0].CreateMatch(pb.CreateMatchRequest(game="what_the_heck", players=2))
        tokens = [stubs[1 + seat].JoinMatch(pb.JoinMatchRequest(match_id=match.match_id, name=f"p{seat}")).token
                  for seat in range(2)]
        for n in range(8):  # each seat's bids go through changing connections: the match is one
            seat = n % 2
            stub = stubs[n]
            actions = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match.match_id),
                                            metadata=auth(tokens[seat])).actions
            reply = stub.SubmitAction(pb.SubmitActionRequest(match_id=match.match_id, action=actions[0]),
                                      metadata=auth(tokens[seat]))
            assert reply.match.version == 3 + n
        deadline = time.monotonic() + 10
        while _metric(stack.metrics_port, "parlor_rpc_requests_total") < 3 + 16:
            assert time.monotonic() < deadline, "the supervisor serves every process's metrics, summed"
            time.sleep(0.2)
        os.kill(first[0], signal.SIGKILL)  # a process that dies is replaced
        deadline = time.monotonic() + 20
        while len(set(_children(supervisor.pid)) - {first[0]}) < 2:
            assert time.monotonic() < deadline, "no process started in its place"
            time.sleep(0.1)
        for channel in channels:
            channel.close()
        with stack.channel() as channel:
            assert stack.stub(channel).GetMatch(pb.GetMatchRequest(match_id=match.match_id)).version == 10
        assert stack.stop_process("service") == 0
        for pid in first[1:]:
            assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
    finally:
        stack.stop()


def test_a_service_process_that_cannot_start_stops_them_all():
    stack = Stack(gateway=False).start()
    try:
        clash = Stack.on_redis_of(stack, gateway=False, env={"PARLOR_SERVICE_PROCESSES": "2"})
        clash.grpc_port = stack.grpc_port  # taken by the first service
        proc = clash._spawn("clash", ["-m", "parlor.service.server"])
        assert proc.wait(30) != 0
        assert "PARLOR_GRPC_PORT" in clash.log("clash")
    finally:
        stack.stop()
