"""``bitsolve.game`` for two-player games: one layer's ranks, positions and
moves, against the command line's ``query`` on the same store, and
rank/unrank identity over whole layers."""

import numpy as np
import pytest

import bitsolve


@pytest.fixture(scope="module")
def dodgem_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("dodgem")
    bitsolve.retro("dodgem", n=3, store=store)
    return store


def test_a_layer_is_the_store_layer(dodgem_store):
    db = bitsolve.open_database("dodgem", store=dodgem_store, n=3)
    for layer in range(5):
        g = bitsolve.game("dodgem", n=3, layer=layer)
        assert g.size == db.layer_size(layer) == len(g)
    g = bitsolve.game("dodgem", n=3)
    assert (g.layer, g.max_layer, g.descriptor, g.sides) == (4, 4, "dodgem n=3 cars=4", ("blue", "red"))
    assert g.position_text(g.start[1]) == "B../B../.RR:blue"
    fox = bitsolve.game("fox-geese", geese=5)
    assert (fox.layer, fox.size, fox.descriptor) == (5, 13290816, "fox-geese g=5")
    assert fox.sides == ("fox", "geese")
    assert bitsolve.game("fox-geese", layer=5).size == fox.size


@pytest.mark.parametrize(
    "name, options",
    [("dodgem", {"n": 3, "layer": 3}), ("fox-geese", {"geese": 3}), ("nine-mens-morris", {"layer": 5})],
)
def test_rank_inverts_unrank_over_a_whole_layer(name, options):
    g = bitsolve.game(name, **options)
    ranks = np.arange(g.size, dtype=np.uint64)
    texts = g.unrank(ranks)
    assert len(set(texts)) == g.size
    assert np.array_equal(g.rank(texts), ranks)
    assert all(g.locate(t) == (g.layer, r) for t, r in zip(texts[:500], range(500)))


def test_moves_and_values_are_the_cli_query(cli, dodgem_store):
    db = bitsolve.open_database("dodgem", store=dodgem_store, n=3)
    g = bitsolve.game("dodgem", n=3)
    names = bitsolve.VALUE_NAMES
    for rank in [0, 1, 2, 100, 761, g.start[1], g.size - 1]:
        text = g.position_text(rank)
        expected = cli.json("query", "dodgem", "--n", "3", "--store", dodgem_store, "--position", text)
        assert [name for name, _, _ in g.moves(rank)] == [m["move"] for m in expected["moves"]]
        # Each move's value, read by (layer, rank) from the store, is query's.
        for (_, layer, to), move in zip(g.moves(rank), expected["moves"]):
            value = names[db.values([to], layer=layer)[0]]
            assert move["value"].replace("won for blue", "first wins").replace(
                "won for red", "second wins"
            ) == value
        places = sorted({(layer, to) for _, layer, to in g.moves(rank)})
        assert g.successors(rank).tolist() == [list(p) for p in places]


def test_captures_lead_to_the_layer_below():
    fox = bitsolve.game("fox-geese", geese=2)
    rank = fox.parse(".../.../..gF.../..g..../......./.../...:fox")
    moves = fox.moves(rank)
    assert [(name, layer) for name, layer, _ in moves] == [
        ("d3xb3", 1), ("d3-d2", 2), ("d3-d4", 2), ("d3-e3", 2)
    ]
    capture = moves[0][2]
    assert fox.position_text(capture, layer=1) == ".../.../.F...../..g..../......./.../...:geese"
    assert fox.successors(rank)[0].tolist() == [1, capture]


def test_two_player_errors():
    with pytest.raises(ValueError, match="layers run from 0 to 4, got 9"):
        bitsolve.game("dodgem", n=3, layer=9)
    g = bitsolve.game("dodgem", n=3)
    with pytest.raises(ValueError, match="lies in layer 3"):
        g.parse(".../R../B.R:blue")
    with pytest.raises(ValueError, match="not below the space's size 1512"):
        g.unrank([1512])


def test_values_of_a_store_written_by_mpi_processes(cli, tmp_path):
    """A store two MPI processes wrote (each layer in one share per process)
    answers ``db.values`` and ``db.query`` as a one-process store does."""
    import shutil
    import subprocess

    mpirun = shutil.which("mpirun")
    if mpirun is None:
        pytest.skip("no mpirun (scripts/test.sh installs Open MPI)")
    shared, single = tmp_path / "mpi", tmp_path / "one"
    job = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2"]
    args = ["retro", "fox-geese", "--layers", "1..5", "--threads", "1", "--store"]
    done = subprocess.run([*job, cli.path, *args, str(shared)], capture_output=True, text=True, timeout=600)
    if "built without MPI" in done.stderr:
        pytest.skip("the bitsolve binary was built without --features mpi")
    assert done.returncode == 0, done.stderr
    assert any("mpi-part-2-of-2" in f.name for f in shared.iterdir())
    cli.run(*args, single)
    mpi_db = bitsolve.open_database("fox-geese", store=shared)
    one_db = bitsolve.open_database("fox-geese", store=single)
    for layer in range(6):
        ranks = np.arange(one_db.layer_size(layer), dtype=np.uint64)
        assert np.array_equal(mpi_db.values(ranks, layer=layer), one_db.values(ranks, layer=layer))
    start = ".../.../......./...F.../......./ggg/gg.:geese"
    assert mpi_db.query(start) == one_db.query(start)


def test_morris_opens_on_its_start_lasker_too():
    # The opening's layers sit above the moving phase's: the start, every
    # stone in hand, alone on the top one.
    g = bitsolve.game("nine-mens-morris")
    assert (g.start, g.layer, g.max_layer, g.sides) == ((36, 0), 36, 36, ("white", "black"))
    assert g.descriptor == "morris nine hand=18 opening"
    # Lasker Morris's opening (place or move) has a layer per pair of hands
    # and stones on the board, either side to move: the start, white to
    # move, is rank 0 of the top one.
    lasker = bitsolve.game("nine-mens-morris", variant="lasker")
    assert lasker.start == (lasker.max_layer, 0)
    assert lasker.layer == lasker.max_layer > 20
    assert lasker.descriptor == "morris lasker hand=10,10 stones=0 opening"
    assert lasker.position_text(0) == "/:white:hand=10,10"
    below = bitsolve.game("nine-mens-morris", variant="lasker", layer=20)
    assert below.descriptor == "morris lasker stones=20 moving"
    folded = bitsolve.game("nine-mens-morris", variant="morabaraba", symmetry=True, layer=6)
    assert folded.descriptor == "morris morabaraba stones=6 moving symmetry"
    text = "a1,a4,d7/b2,g4,g7:black"
    assert folded.locate(text)[0] == 6
    assert folded.position_text(folded.locate(text)[1]).endswith(":black")
