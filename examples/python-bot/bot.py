#!/usr/bin/env python3
"""A complete pioneers bot in Python 3.10+ with one dependency (websockets).

Run:    python3 bot.py --port 8080 [--host 127.0.0.1] [--platform-key BASE64] [--public-url URL] [--quiet]
Then:   arena bot check http://127.0.0.1:8080
        arena play http://127.0.0.1:8080 builtin:random builtin:random --games 10

The board's fixed geometry (which vertices a hex has, which vertices and edges
touch) comes from board.json beside this file: the output of
`arena board --json`. The view each decision carries holds the rest.

Strategy: settle on the richest free vertices, then build a city, a
settlement or a road whenever affordable, discard from the largest piles,
send the bandit to an opponent, decline trades.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import ipaddress
import json
import os
import re
import sys
import time
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

import websockets

BOARD = json.loads((Path(__file__).parent / "board.json").read_text())
HEX_VERTICES = [h["vertices"] for h in BOARD["hexes"]]
VERTEX_NEIGHBOURS = [v["neighbours"] for v in BOARD["vertices"]]
VERTEX_EDGES = [v["edges"] for v in BOARD["vertices"]]
VERTEX_HEXES = [v["hexes"] for v in BOARD["vertices"]]
EDGE_VERTICES = [e["vertices"] for e in BOARD["edges"]]

RESOURCES = ["brick", "lumber", "wool", "grain", "ore"]
COSTS = {
    "road": {"brick": 1, "lumber": 1},
    "settlement": {"brick": 1, "lumber": 1, "wool": 1, "grain": 1},
    "city": {"grain": 2, "ore": 3},
}
LIMITS = {"road": 15, "settlement": 5, "city": 4}
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


# ---------------------------------------------------------------- the strategy

def vertex_value(view: dict, v: int) -> int:
    """How much a town on v produces: the sum of its hexes' pips."""
    hexes = view["board"]["hexes"]
    return sum(PIPS.get(hexes[h]["token"] or 0, 0) for h in VERTEX_HEXES[v])


def town_at(view: dict) -> dict[int, dict]:
    return {t["vertex"]: t for t in view["towns"]}


def free_for_town(view: dict, v: int, towns: dict[int, dict]) -> bool:
    """The distance rule: v and all its neighbours are town-free."""
    return v not in towns and all(n not in towns for n in VERTEX_NEIGHBOURS[v])


def can_afford(hand: dict, cost: dict) -> bool:
    return all(hand.get(r, 0) >= n for r, n in cost.items())


def setup(view: dict) -> dict:
    towns = town_at(view)
    roads = {r["edge"] for r in view["roads"]}
    best = max(
        (v for v in range(len(VERTEX_NEIGHBOURS)) if free_for_town(view, v, towns)),
        key=lambda v: (vertex_value(view, v), -v),
    )
    road = min(e for e in VERTEX_EDGES[best] if e not in roads)
    return {"settlement": best, "road": road}


def road_edges(view: dict) -> list[int]:
    """Empty edges connected to the seat's network, not through an opponent's town."""
    me = view["seat"]
    towns = town_at(view)
    owner = {r["edge"]: r["seat"] for r in view["roads"]}
    out = []
    for e, (a, b) in enumerate(EDGE_VERTICES):
        if e in owner:
            continue
        for v in (a, b):
            town = towns.get(v)
            if town is not None and town["seat"] == me:
                out.append(e)
                break
            if town is None and any(owner.get(f) == me for f in VERTEX_EDGES[v] if f != e):
                out.append(e)
                break
    return out


def settlement_vertices(view: dict) -> list[int]:
    me = view["seat"]
    towns = town_at(view)
    own_road = {r["edge"] for r in view["roads"] if r["seat"] == me}
    return [
        v for v in range(len(VERTEX_NEIGHBOURS))
        if free_for_town(view, v, towns) and any(e in own_road for e in VERTEX_EDGES[v])
    ]


def turn(view: dict) -> dict:
    me, hand = view["seat"], view["hand"]
    mine = [t for t in view["towns"] if t["seat"] == me]
    settlements = [t["vertex"] for t in mine if not t["city"]]
    cities = len(mine) - len(settlements)
    roads = sum(1 for r in view["roads"] if r["seat"] == me)

    if settlements and cities < LIMITS["city"] and can_afford(hand, COSTS["city"]):
        return {"type": "build_city", "vertex": max(settlements, key=lambda v: vertex_value(view, v))}
    if len(settlements) < LIMITS["settlement"] and can_afford(hand, COSTS["settlement"]):
        spots = settlement_vertices(view)
        if spots:
            return {"type": "build_settlement", "vertex": max(spots, key=lambda v: (vertex_value(view, v), -v))}
    if roads < LIMITS["road"] and can_afford(hand, COSTS["road"]):
        edges = road_edges(view)
        if edges:
            return {"type": "build_road", "edge": edges[0]}
    return {"type": "end_turn"}


def discard(view: dict) -> dict:
    hand = {r: view["hand"].get(r, 0) for r in RESOURCES}
    owed = sum(hand.values()) // 2
    cards = {r: 0 for r in RESOURCES}
    for _ in range(owed):
        r = max(RESOURCES, key=lambda r: (hand[r], -RESOURCES.index(r)))
        hand[r] -= 1
        cards[r] += 1
    return {"cards": {r: n for r, n in cards.items() if n}}


def bandit(view: dict) -> dict:
    me, current = view["seat"], view["board"]["bandit"]
    towns = town_at(view)
    best = None
    for h, verts in enumerate(HEX_VERTICES):
        if h == current:
            continue
        victims = [towns[v]["seat"] for v in verts if v in towns and towns[v]["seat"] != me]
        mine = any(v in towns and towns[v]["seat"] == me for v in verts)
        if victims and not mine:
            victim = max(victims, key=lambda s: view["handCounts"][s])
            score = (view["handCounts"][victim], len(victims))
            if best is None or score > best[0]:
                best = (score, {"hex": h, "victim": victim})
    if best:
        return best[1]
    return {"hex": 0 if current != 0 else 1}


DECIDE = {
    "setup": setup,
    "turn": turn,
    "discard": discard,
    "bandit": bandit,
    "trade": lambda view: {"accept": False},
}


# ------------------------------------------------ verifying the arena's handshake

# Ed25519 verification (RFC 8032, section 5.1.7), in pure Python so the bot
# needs nothing beyond websockets. It runs once per match socket.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_I = pow(2, (_P - 1) // 4, _P)


def _add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % _P
    bb = (y1 + x1) * (y2 + x2) % _P
    cc = 2 * t1 * t2 * _D % _P
    dd = 2 * z1 * z2 % _P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _mul(s, p):
    q = (0, 1, 1, 0)
    while s:
        if s & 1:
            q = _add(q, p)
        p = _add(p, p)
        s >>= 1
    return q


def _decode(b: bytes):
    if len(b) != 32:
        return None
    y = int.from_bytes(b, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _I % _P
    if (x * x - x2) % _P:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = _P - x
    return (x, y, 1, x * y % _P)


def _equal(a, b) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


_G = _decode((4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little"))


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    a = _decode(public)
    if a is None or len(signature) != 64:
        return False
    r = _decode(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if r is None or s >= _L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % _L
    return _equal(_mul(s, _G), _add(r, _mul(h, a)))


SKEW_MS = 30_000


def audience_of(url: str) -> str:
    """The audience as the arena writes it: WHATWG `new URL(url).href` of the
    socket URL (http(s) read as ws(s)), for the usual forms of a URL: lower-case
    scheme and host, no default port, "/" for an empty path, no fragment.
    Raises ValueError for something that is not such a URL."""
    parts = urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme.lower(), parts.scheme.lower())
    if scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"not a ws(s):// or http(s):// URL: {url!r}")
    host = parts.hostname
    if ":" in host:
        host = f"[{ipaddress.IPv6Address(host).compressed}]"
    port = parts.port
    netloc = host if port in (None, 80 if scheme == "ws" else 443) else f"{host}:{port}"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{netloc}{parts.path or '/'}{query}"


class NonceMemory:
    """Nonces of accepted handshakes, each kept until its timestamp is out of
    the 30 s window. Only verified handshakes get here, so nobody but the arena
    can fill it; when full it refuses rather than forget a live nonce."""

    def __init__(self, capacity: int = 10_000):
        self.capacity = capacity
        self.until: dict[str, int] = {}

    def admit(self, nonce: str, now: int, stamp: int) -> bool:
        if len(self.until) >= self.capacity or len(self.until) % 64 == 0:
            self.until = {n: t for n, t in self.until.items() if t > now}
        if self.until.get(nonce, 0) > now or len(self.until) >= self.capacity:
            return False
        self.until[nonce] = max(now, stamp) + SKEW_MS
        return True


def handshake_ok(headers, platform_key: bytes, own_url: str, nonces: NonceMemory) -> bool:
    """The audience-bound handshake (the arena's docs/protocol.md): besides the
    spec's x-svc-signature over "<timestamp>.<matchId>" (which names no bot, so
    another bot's owner could replay one to us), the arena sends x-svc-audience
    (the URL it connected to), x-svc-nonce and x-svc-audience-signature, Ed25519
    by the platform key over "<timestamp>.<matchId>.<nonce>.<audience>". Accept
    only our own audience (own_url comes from our configuration, never from
    the Host header), a good signature, a fresh timestamp and a new nonce."""
    try:
        match_id, stamp, audience, nonce, sig = (headers.get(name) for name in (
            "x-svc-match", "x-svc-timestamp", "x-svc-audience", "x-svc-nonce", "x-svc-audience-signature"))
    except LookupError:  # websockets raises MultipleValuesError for a repeated header: ambiguous, refused
        return False
    if not match_id or not stamp or not audience or not nonce or not sig:
        return False
    if audience != own_url or not re.fullmatch(r"[A-Za-z0-9_-]{22}", nonce):
        return False
    if not re.fullmatch(r"[0-9]{1,16}", stamp):
        return False
    now = int(time.time() * 1000)
    if abs(int(stamp) - now) > SKEW_MS:
        return False
    try:
        signature = base64.b64decode(sig, validate=True)
    except ValueError:
        return False
    message = f"{stamp}.{match_id}.{nonce}.{audience}".encode()
    return ed25519_verify(platform_key, message, signature) and nonces.admit(nonce, now, int(stamp))


# ------------------------------------------------------------------ the server

async def play(socket, quiet: bool) -> None:
    try:
        await answer_frames(socket, quiet)
    except websockets.ConnectionClosed:
        pass  # the arena hung up (the deploy check does so right after the upgrade): nothing to answer


async def answer_frames(socket, quiet: bool) -> None:
    async for frame in socket:
        if isinstance(frame, bytes):
            continue
        request = json.loads(frame)
        action = DECIDE[request["kind"]](request["view"])
        if not quiet:
            print(f"seat {request['seat']} {request['kind']:>7} -> {json.dumps(action)}", file=sys.stderr)
        await socket.send(json.dumps({"id": request["id"], "action": action}))


def serve(host: str, port: int, platform_key: bytes | None, quiet: bool, own: dict):
    """The /ping route and the upgrade check, for both websockets APIs (10.x
    legacy and 13+). own["url"] is this bot's public URL, set once listening."""
    major = int(websockets.__version__.split(".")[0])
    nonces = NonceMemory()

    def refuse(path: str, headers):
        if path.split("?")[0].endswith("/ping"):
            return HTTPStatus.OK, "pong"
        if platform_key is not None and not handshake_ok(headers, platform_key, own["url"], nonces):
            return HTTPStatus.UNAUTHORIZED, "bad handshake: not signed by the platform for this bot, stale, or replayed\n"
        return None

    if major >= 13:
        from websockets.asyncio.server import serve as serve_new

        def process_request(connection, request):
            answer = refuse(request.path, request.headers)
            return None if answer is None else connection.respond(*answer)

        return serve_new(lambda ws: play(ws, quiet), host, port, process_request=process_request, compression=None)

    def process_request_legacy(path, headers):
        answer = refuse(path, headers)
        if answer is None:
            return None
        status, body = answer
        return status, [("content-type", "text/plain")], body.encode()

    return websockets.serve(lambda ws, *_: play(ws, quiet), host, port, process_request=process_request_legacy, compression=None)


async def main() -> None:
    parser = argparse.ArgumentParser(description="A pioneers bot: HTTP /ping plus the arena's WebSocket.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")), help="0 picks a free port")
    parser.add_argument("--platform-key", default=os.environ.get("ARENA_PLATFORM_KEY"),
                        help="base64 platform public key (arena play --print-platform-key); verify every handshake")
    parser.add_argument("--public-url", default=os.environ.get("BOT_PUBLIC_URL"),
                        help="the URL the arena connects to, as registered (default ws://HOST:PORT/); "
                             "handshakes must be addressed to it")
    parser.add_argument("--quiet", action="store_true", help="no per-decision log")
    args = parser.parse_args()
    key = base64.b64decode(args.platform_key) if args.platform_key else None
    if key is not None and len(key) != 32:
        parser.error("--platform-key must be base64 of 32 raw bytes")
    own = {"url": ""}
    if args.public_url is not None:
        try:
            own["url"] = audience_of(args.public_url)
        except ValueError:
            parser.error(f"--public-url must be a URL such as wss://bot.example.org/, got {args.public_url!r}")
    async with serve(args.host, args.port, key, args.quiet, own) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        if not own["url"]:
            # Never from a request's Host header: the sender chooses that.
            shown = f"[{args.host}]" if ":" in args.host else args.host
            own["url"] = audience_of(f"ws://{shown}:{port}/")
        # Scripts and tests read the address from this line.
        verifying = f" (verifying handshakes addressed to {own['url']})" if key is not None else ""
        print(f"python bot listening on http://{args.host}:{port}{verifying}", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
