"""An external bot for fengsheng (docs/bots-protocol.md): one JSON message a line on stdin, one action id a
line on stdout. It knows only what it is sent: it declines an intel it can see that is black, accepts one
that is not, and otherwise picks at random (seeded by `hello`, so a game replays).

    fengsheng simulate -p 5 -n 20 --agents ext:mine,random,random,random,random \
        --bot mine='python3 examples/external_bot.py'
"""

import json
import random
import sys

rng = random.Random()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":  # a new game: {"seat", "players", "seed", "content", ...}
        rng.seed(message["seed"])
    elif message["type"] == "decide":  # {"observation", "actions"}: answer with the id of one action
        observation, actions = message["observation"], message["actions"]
        by_kind = {a["kind"]: a for a in actions}
        card = (observation["transit"] or {}).get("card")  # the intel in front of me, if I can see it
        if card is not None and "accept" in by_kind and "decline" in by_kind:
            choice = by_kind["decline" if "black" in card["colors"] else "accept"]
        else:
            choice = rng.choice(actions)
        print(choice["id"], flush=True)
    # "end": the game is over ({"result"}); the next game starts with another "hello"
