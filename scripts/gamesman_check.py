#!/usr/bin/env python3
"""Checks bitsolve's values and distances against GamesmanOne's, position by
position, for the games both solve with the same rules.

Positions come from random walks from the start through GamesmanOne's own
`query` (each answer lists the moves and the positions they lead to), so
every position checked is reachable; each is then asked of `bitsolve query`
in the store a `bitsolve retro ... --distances --store DIR` run wrote.

    scripts/gamesman_check.py kaooa --gamesman PATH --data D --store S
    scripts/gamesman_check.py quixo --options "--n 4 --symmetry" ...

GamesmanOne must have solved the game into --data (a relative path, as it
requires) beforehand: `gamesman --data-path=D solve GAME VARIANT`.
Exit status 1 when any position differs (each is listed), 0 otherwise.
"""

import argparse
import json
import random
import subprocess
import sys

# Kaooa's points (GamesmanOne's numbering) as the cells of bitsolve's grid.
KAOOA_POINT_CELL = [0, 4, 9, 8, 1, 3, 6, 7, 5, 2]
KAOOA_ROWS = [1, 4, 2, 1, 2]


def rows(cells, lengths):
    out, at = [], 0
    for length in lengths:
        out.append("".join(cells[at : at + length]))
        at += length
    return "/".join(out)


def kaooa(position):
    turn, body = position.split("_")
    points, dropped = body[:10], int(body[10])
    cells = ["."] * 10
    for point, symbol in enumerate(points):
        cells[KAOOA_POINT_CELL[point]] = "." if symbol == "-" else symbol
    side = "crows" if turn == "1" else "vulture"
    vulture_in_hand = 0 if "V" in points else 1
    return f"{rows(cells, KAOOA_ROWS)}:{side}:{6 - dropped},{vulture_in_hand}"


def square(position, stones_a_side=None):
    turn, body = position.split("_")
    n = int(round(len(body) ** 0.5))
    cells = ["." if symbol == "-" else symbol for symbol in body]
    text = f"{rows(cells, [n] * n)}:{'x' if turn == '1' else 'o'}"
    if stones_a_side is not None:
        x, o = body.count("X"), body.count("O")
        text += f":{stones_a_side - x},{stones_a_side - o}"
    return text


# game: (GamesmanOne's name, its variant for bitsolve's options, the start,
# the position in bitsolve's text)
GAMES = {
    "kaooa": ("mkaooa", lambda options: "0", "1_----------0", kaooa),
    "teeko": (
        "teeko",
        lambda options: "1" if "--advanced" in options else "0",
        "1_" + "-" * 25,
        lambda position: square(position, 4),
    ),
    "quixo": (
        "quixo",
        lambda options: str(5 - quixo_n(options)),
        None,
        square,
    ),
}


def quixo_n(options):
    words = options.split()
    return int(words[words.index("--n") + 1]) if "--n" in words else 4


def gamesman_query(args, name, variant, position):
    out = subprocess.run(
        [args.gamesman, f"--data-path={args.data}", "query", name, variant, position],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out[out.index("{") :])


def bitsolve_query(args, game, text):
    command = [args.bitsolve, "query", "--store", args.store, "--json", game]
    command += args.options.split() + ["--position", text]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"bitsolve query failed on {text}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--options", default="", help="bitsolve's options for the game")
    parser.add_argument("--gamesman", required=True, help="the GamesmanOne binary")
    parser.add_argument("--data", required=True, help="GamesmanOne's --data-path (relative)")
    parser.add_argument("--bitsolve", default="bitsolve")
    parser.add_argument("--store", required=True, help="bitsolve's store, with distances")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--restart", type=float, default=0.05, help="chance a walk restarts")
    args = parser.parse_args()
    name, variant_of, start, to_text = GAMES[args.game]
    variant = variant_of(args.options)
    if start is None:
        start = "1_" + "-" * quixo_n(args.options) ** 2
    rng = random.Random(args.seed)
    seen, differ, position = {}, [], start
    while len(seen) < args.positions:
        answer = gamesman_query(args, name, variant, position)
        if position not in seen:
            seen[position] = answer
        children = [m["position"] for m in answer["moves"]]
        position = start if not children or rng.random() < args.restart else rng.choice(children)
    by_value = {}
    for position, answer in seen.items():
        text = to_text(position)
        ours = bitsolve_query(args, args.game, text)
        if ours["value"] == "drawn":
            value, plies = "draw", 0
        else:
            value = "win" if ours["value"] == f"won for {ours['to_move']}" else "lose"
            plies = ours["distance"]
        theirs = (answer["positionValue"], answer["remoteness"])
        by_value[theirs[0]] = by_value.get(theirs[0], 0) + 1
        if (value, plies) != theirs:
            differ.append(f"{position} ({text}): GamesmanOne {theirs}, bitsolve {(value, plies)}")
    print(
        f"{args.game}: {len(seen)} positions reachable from the start, "
        f"{len(seen) - len(differ)} equal in value and remoteness, {len(differ)} differ; "
        f"GamesmanOne's values: {dict(sorted(by_value.items()))}"
    )
    for line in differ[:20]:
        print("  " + line)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
