"""Every call of the package against the command line's JSON on the same
input (Pancake 9, the 3x3 sliding-tile puzzle, Peg Solitaire on a 4x5
board, Fox-and-Geese layers 1..6, Dodgem 3x3), rank/unrank identity over
whole spaces through numpy, and errors with the command line's messages."""

import re

import numpy as np
import pytest

import bitsolve

# Keys of `bfs --json` and `retro --json` that differ from run to run.
VOLATILE = {"seconds", "phases", "successors_per_second", "peak_rss_bytes", "store"}


def stable(report, also=frozenset()):
    """The report without its volatile keys (and `also`), at every depth."""
    if isinstance(report, dict):
        return {
            k: stable(v, also)
            for k, v in report.items()
            if k not in VOLATILE and k not in also
        }
    if isinstance(report, list):
        return [stable(v, also) for v in report]
    return report


@pytest.fixture(scope="module")
def one_player(peg_board):
    """(python kwargs, CLI words) of the one-player inputs."""
    return {
        "pancake": ({"n": 9}, ["pancake", "--n", "9"]),
        "sliding-tile": (
            {"width": 3, "height": 3},
            ["sliding-tile", "--width", "3", "--height", "3"],
        ),
        "peg-solitaire": (
            {"board": peg_board, "start_hole": "b2"},
            ["peg-solitaire", "--board", peg_board, "--start-hole", "b2"],
        ),
    }


GAMES = ["pancake", "sliding-tile", "peg-solitaire"]


def test_games_is_the_cli_catalog(cli):
    assert bitsolve.games() == cli.json("games")["games"]
    names = [g["name"] for g in bitsolve.games()]
    assert {"pancake", "fox-geese", "dodgem", "hex"} <= set(names)


@pytest.mark.parametrize("name", GAMES)
def test_size_is_the_cli_info(cli, one_player, name):
    options, words = one_player[name]
    g = bitsolve.game(name, **options)
    info = cli.json("info", *words)
    assert g.size == info["states"] == len(g)
    assert g.descriptor == info["game"]


@pytest.mark.parametrize("name", GAMES)
def test_bfs_is_the_cli_bfs(cli, one_player, name):
    options, words = one_player[name]
    g = bitsolve.game(name, **options)
    report = g.bfs()
    expected = cli.json("bfs", *words)
    assert set(report.to_dict()) == set(expected)
    assert stable(report.to_dict()) == stable(expected)
    assert report.layers.dtype == np.uint64
    assert report.layers.tolist() == expected["layers"]
    assert report.total == expected["total"] == int(report.layers.sum())


def test_bfs_options_are_the_cli_flags(cli, one_player, tmp_path):
    options, words = one_player["pancake"]
    g = bitsolve.game("pancake", **options)
    shallow = g.bfs(max_depth=3, threads=1, store=tmp_path / "store")
    expected = cli.json(
        "bfs", *words, "--max-depth", "3", "--threads", "1", "--store", tmp_path / "cli"
    )
    assert stable(shallow.to_dict()) == stable(expected)
    assert shallow.complete is False and len(shallow.layers) == 4
    reach = g.bfs(algo="reach")
    assert reach.layers is None
    assert reach.total == cli.json("bfs", *words, "--algo", "reach")["total"]


def test_bfs_with_its_table_on_disk_is_the_cli_disk_mode(cli, one_player, tmp_path):
    options, words = one_player["pancake"]
    g = bitsolve.game("pancake", **options)
    on_disk = g.bfs(store=tmp_path / "py", memory="64K")
    expected = cli.json("bfs", *words, "--store", tmp_path / "cli", "--memory", "64K")
    # What waits for other windows depends on the threads' order, so the
    # bytes moved (in total and per layer in `layer_io`) differ run to run.
    io = {"bytes_read", "bytes_written"}
    assert stable(on_disk.to_dict(), io) == stable(expected, io)
    assert [l["layer"] for l in on_disk.to_dict()["layer_io"]] == [
        l["layer"] for l in expected["layer_io"]
    ]
    assert on_disk.to_dict()["bytes_written"] > 0
    assert on_disk.layers.tolist() == g.bfs().layers.tolist()
    assert on_disk.to_dict()["backend"] == "disk"
    with pytest.raises(ValueError, match="not a size"):
        g.bfs(store=tmp_path / "bad", memory="12X")


@pytest.mark.parametrize("name", ["pancake", "sliding-tile"])
def test_solve_is_the_cli_solve(cli, one_player, name, tmp_path):
    options, words = one_player[name]
    g = bitsolve.game(name, **options)
    position = g.position_text(g.size // 2 + 1)
    solution = g.solve(position, store=tmp_path / "py")
    expected = cli.json("solve", *words, "--position", position, "--store", tmp_path / "cli")
    volatile = {"solve_seconds", "table"}
    assert {k: v for k, v in solution.to_dict().items() if k not in volatile} == {
        k: v for k, v in expected.items() if k not in volatile
    }
    assert solution.length == expected["length"] == len(solution.moves)
    assert solution.positions == [step["position"] for step in expected["moves"]]
    # Each move leads to a successor; the last reaches the target.
    ranks = [g.parse(position)] + [g.parse(p) for p in solution.positions]
    for here, there in zip(ranks, ranks[1:]):
        assert there in g.successors(here)
    again = g.solve(g.parse(position), store=tmp_path / "py")
    assert again.table["from_store"] is True and again.moves == solution.moves


@pytest.mark.parametrize("name", GAMES)
def test_positions_are_the_cli_show(cli, one_player, name):
    options, words = one_player[name]
    g = bitsolve.game(name, **options)
    for rank in [0, 5, g.size // 3, g.size - 1]:
        text = g.position_text(rank)
        assert g.parse(text) == rank
        shown = cli.run("show", *words, "--rank", rank).stdout
        assert f"rank {rank}\n" in shown
        assert g.draw(rank) in shown
        by_text = cli.run("show", *words, "--position", text).stdout
        assert f"rank {rank}\n" in by_text
        listed = re.search(r"to ranks:(.*)", shown).group(1).split()
        successors = g.successors(rank)
        assert successors.dtype == np.uint64
        assert successors.tolist() == sorted(set(map(int, listed)))


@pytest.mark.parametrize("name", GAMES)
def test_rank_inverts_unrank_over_the_whole_space(one_player, name):
    options, _ = one_player[name]
    g = bitsolve.game(name, **options)
    ranks = np.arange(g.size, dtype=np.uint64)
    states = g.unrank(ranks)
    assert states.shape == (g.size, g.width)
    assert states.dtype == np.int64
    assert np.array_equal(g.rank(states), ranks)
    # Distinct ranks are distinct positions.
    assert len(np.unique(states, axis=0)) == g.size


def test_array_forms_are_the_natural_encodings(one_player):
    pancake = bitsolve.game("pancake", n=9)
    start = pancake.unrank([pancake.start_ranks[0]])[0]
    assert sorted(start.tolist()) == list(range(1, 10))
    # Flipping the top k of the stack in numpy gives the successors.
    row = pancake.unrank([12345])[0]
    flipped = [np.concatenate([row[:k][::-1], row[k:]]) for k in range(2, 10)]
    assert sorted(pancake.rank(np.array(flipped)).tolist()) == pancake.successors(12345).tolist()
    peg = bitsolve.game("peg-solitaire", **one_player["peg-solitaire"][0])
    assert peg.width == 20
    full = np.ones(20, dtype=np.int64)
    full[6] = 0  # b2 empty: the start
    assert peg.rank(full).tolist() == peg.start_ranks
    tiles = bitsolve.game("sliding-tile", width=3, height=3)
    assert sorted(tiles.unrank([777])[0].tolist()) == list(range(9))
    burned = bitsolve.game("pancake", n=4, burned=True)
    rows = burned.unrank(np.arange(burned.size, dtype=np.uint64))
    assert (rows < 0).any() and np.array_equal(np.abs(rows).max(axis=1), np.full(burned.size, 4))
    assert np.array_equal(burned.rank(rows), np.arange(burned.size, dtype=np.uint64))


def test_retro_is_the_cli_retro(cli, tmp_path):
    report = bitsolve.retro("fox-geese", layers=(1, 6), store=tmp_path / "py")
    expected = cli.json("retro", "fox-geese", "--layers", "1..6", "--store", tmp_path / "cli")
    assert stable(report.to_dict()) == stable(expected)
    assert [row["layer"] for row in report.layers] == list(range(1, 7))
    dodgem = bitsolve.retro("dodgem", n=3)
    assert stable(dodgem.to_dict()) == stable(cli.json("retro", "dodgem", "--n", "3"))
    assert dodgem.sides == ["blue", "red"]


@pytest.fixture(scope="module")
def fox_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("fox-geese")
    bitsolve.retro("fox-geese", layers="1..6", store=store, distances=True)
    return store


FOX_POSITIONS = [
    "gggggg..........F................:fox",
    "gggggg..........F................:geese",
    "........ggg.F..ggg...............:fox",
    "g.g.g.g.g.g.....F................:geese",
]


def test_query_is_the_cli_query(cli, fox_store):
    db = bitsolve.open_database("fox-geese", store=fox_store)
    for position in FOX_POSITIONS:
        expected = cli.json("query", "fox-geese", "--store", fox_store, "--position", position)
        assert db.query(position) == expected
        assert db.query(position) == expected  # the second answer from the open table


def test_values_count_as_the_retro_report(fox_store):
    db = bitsolve.open_database("fox-geese", store=fox_store)
    report = bitsolve.retro("fox-geese", layers=(1, 6), store=fox_store)
    for row in report.layers:
        layer = row["layer"]
        values = db.values(np.arange(db.layer_size(layer), dtype=np.uint64), layer=layer)
        assert values.dtype == np.uint8
        counts = np.bincount(values, minlength=4)
        assert row["already_solved"]
        assert counts[1] == row["won_for_fox"]
        assert counts[2] == row["won_for_geese"]
        assert counts[3] == row["draws"]


def test_dodgem_database(cli, tmp_path):
    bitsolve.retro("dodgem", store=tmp_path)
    db = bitsolve.open_database("dodgem", store=tmp_path)
    position = "B../B../.RR:blue"
    assert db.query(position) == cli.json(
        "query", "dodgem", "--store", tmp_path, "--position", position
    )


def test_verify_is_the_cli_verify(cli, fox_store, tmp_path):
    assert bitsolve.verify(fox_store) == cli.json("verify", fox_store)
    assert bitsolve.verify(fox_store)["intact"] is True
    g = bitsolve.game("pancake", n=7)
    g.bfs(store=tmp_path)
    assert bitsolve.verify(tmp_path) == cli.json("verify", tmp_path)


def test_errors_carry_the_cli_message(cli, one_player, tmp_path):
    cases = [
        (lambda: bitsolve.game("pancake", n=99), ["bfs", "pancake", "--n", "99"]),
        (lambda: bitsolve.game("pancake", n="eleven"), ["bfs", "pancake", "--n", "eleven"]),
        (lambda: bitsolve.game("pancake"), ["bfs", "pancake"]),
        (
            lambda: bitsolve.game("pancake", n=9).parse("1 2 3"),
            ["show", "pancake", "--n", "9", "--position", "1 2 3"],
        ),
        (
            lambda: bitsolve.game("peg-solitaire", board=one_player["peg-solitaire"][0]["board"]),
            ["bfs", "peg-solitaire", "--board", one_player["peg-solitaire"][0]["board"]],
        ),
        (
            lambda: bitsolve.retro("fox-geese", layers=(1, 99)),
            ["retro", "fox-geese", "--layers", "1..99"],
        ),
        (
            lambda: bitsolve.open_database("fox-geese", store=tmp_path).query(FOX_POSITIONS[0]),
            ["query", "fox-geese", "--store", tmp_path, "--position", FOX_POSITIONS[0]],
        ),
        (
            lambda: bitsolve.game("pancake", n=9).bfs(algo="one-bit"),
            ["bfs", "pancake", "--n", "9", "--algo", "one-bit"],
        ),
        (lambda: bitsolve.verify(tmp_path / "missing"), ["verify", tmp_path / "missing"]),
    ]
    for call, words in cases:
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == cli.error(*words), words
    with pytest.raises(ValueError, match="unknown game 'pancakes'"):
        bitsolve.game("pancakes", n=3)
    with pytest.raises(ValueError, match="positional game"):
        bitsolve.game("hex")
    with pytest.raises(ValueError, match="unexpected argument 'size'"):
        bitsolve.game("pancake", n=5, size=3)
    with pytest.raises(ValueError, match="not below the space's size"):
        bitsolve.game("pancake", n=5).unrank([120])
    with pytest.raises(ValueError, match="row 1"):
        bitsolve.game("pancake", n=3).rank([[1, 2, 3], [1, 1, 3]])
    with pytest.raises(ValueError, match="invalid value 'three-bit'"):
        bitsolve.game("pancake", n=5).bfs(algo="three-bit")
