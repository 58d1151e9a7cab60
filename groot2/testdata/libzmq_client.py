"""A Groot2-like client on libzmq (pyzmq), for groot2's TestLibzmqClient.

Usage: libzmq_client.py PORT UID

It talks to a publisher on PORT (REQ) and PORT+1 (SUB) as Groot2 does, and checks the
replies. It prints "tick" when the Go test should tick the tree (which a breakpoint
on node UID pauses), then unlocks the breakpoint with SUCCESS; it prints "ok" at the
end. Any failed check raises, and the exit status is not 0.
"""
import json
import random
import struct
import sys

import zmq

port, uid = int(sys.argv[1]), int(sys.argv[2])
ctx = zmq.Context()
req = ctx.socket(zmq.REQ)
sub = ctx.socket(zmq.SUB)
for s in (req, sub):
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.RCVTIMEO, 10000)
    s.setsockopt(zmq.SNDTIMEO, 10000)
req.connect("tcp://127.0.0.1:%d" % port)
sub.connect("tcp://127.0.0.1:%d" % (port + 1))
sub.setsockopt(zmq.SUBSCRIBE, b"")


def header(kind):
    return struct.pack("<BBI", 2, ord(kind), random.getrandbits(32))


def request(kind, *parts):
    h = header(kind)
    req.send_multipart([h] + [p.encode() for p in parts])
    reply = req.recv_multipart()
    assert reply[0] != b"error", reply
    assert len(reply[0]) == 22 and reply[0][:6] == h, reply[0]
    return reply[1:]


def check(what, cond):
    if not cond:
        raise AssertionError(what)


xml = request("T")
check("FULLTREE is the tree's XML", len(xml) == 1 and xml[0].startswith(b"<root"))
status = request("S")[0]
check("STATUS has 3 bytes a node", len(status) % 3 == 0 and len(status) > 0)
uids = [struct.unpack_from("<H", status, i)[0] for i in range(0, len(status), 3)]
check("STATUS lists node %d" % uid, uid in uids)

hook = {"enabled": True, "uid": uid, "mode": 0, "once": False,
        "desired_status": "FAILURE", "position": 0}
check("HOOK_INSERT replies with the header alone", request("I", json.dumps(hook)) == [])
dump = json.loads(request("D")[0])
check("HOOKS_DUMP lists the hook", dump == [dict(hook)])

print("tick", flush=True)
notice = sub.recv_multipart()
check("BREAKPOINT_REACHED", len(notice) == 2 and notice[0][:2] == b"\x02N" and len(notice[0]) == 6)
check("the notice names node %d" % uid, notice[1] == str(uid).encode())
unlock = {"uid": uid, "position": 0, "desired_status": "SUCCESS", "remove_when_done": True}
request("U", json.dumps(unlock))

bb = request("B", "MainTree")[0]
check("BLACKBOARD is a MessagePack map of one blackboard", bb[:1] == b"\x81")
start = request("r", "start")
check("TOGGLE_RECORDING start replies with a time", len(start) == 1 and int(start[0]) > 0)
check("GET_TRANSITIONS has 9 bytes a change", len(request("t")[0]) % 9 == 0)
request("r", "stop")

req.send_multipart([b"\x02T\x00"])
check("a short header gets an error", req.recv_multipart() == [b"error", b"wrong request header"])
check("the server goes on", len(request("T")) == 1)
print("ok", flush=True)
