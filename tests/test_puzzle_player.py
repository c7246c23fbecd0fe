"""The puzzle player's record survives a restart (issue 70): another process, or
another connection, reads the rating and the due review; the game store opens beside it."""
from __future__ import annotations

import json
import subprocess
import sys

from solver.puzzles.player import PlayerStore
from solver.web.store import GameStore


def test_another_process_sees_the_rating_and_the_due_card(tmp_path):
    player = PlayerStore(tmp_path)
    player.record("pod-001", True, 1400, ("lead",), now=1000.0)
    out = player.record("pod-002", False, 1450, ("take", "defence"), now=1001.0)
    rating = player.glicko().rating
    player.close()
    code = ("import json, sys; from solver.puzzles.player import PlayerStore; "
            "p = PlayerStore(sys.argv[1]); "
            "print(json.dumps([p.glicko().rating, p.due(now=1e12), p.stats(now=1e12)]))")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=False,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    seen, due, stats = json.loads(r.stdout)
    assert seen == rating and due == ["pod-002"] and out["due"]
    assert stats["attempts"] == 2 and stats["due"] == 1
    assert [t["theme"] for t in stats["themes"]][:2] == ["take", "defence"] or \
        stats["themes"][0]["accuracy"] == 0


def test_the_game_store_opens_a_file_the_player_made_and_the_other_way(tmp_path):
    a = tmp_path / "a"
    PlayerStore(a).close()
    GameStore(a).close()  # the puzzle tables are durak's: not another program's database
    b = tmp_path / "b"
    games = GameStore(b)
    games.save("g1", {"kind": "play"}, "record", False)
    games.close()
    player = PlayerStore(b)
    player.record("p", False, 1500, now=5.0)
    player.close()
    games = GameStore(b)
    assert games.load("g1") is not None
    games.close()
    assert PlayerStore(b).due(now=1e12) == ["p"]
