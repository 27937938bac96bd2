"""Toy Duel: a game that is not one of Hangar's, in one package outside rules_engine/, to prove that adding a game
needs nothing outside its package (docs/architecture.md "Adding a game" walks through it).

    system.py         its registry entry: the game type, the hooks, where its data is
    construction.py   its construction rules, one object per rule ID (T1, T2), its messages in both languages
    game.py           its engine: a tiny card duel of three rounds (the state protocol of rules_engine/core/game.py)
    simulation.py     its Simulator, registered with rules_engine.simulation
    presentation.py   what it shows (rules_engine.system_entry.Presentation)
    report.py         its replay's sentences in both languages (a ReportWords of rules_engine/core/gamewords.py)
    toyduel.schema.json, packages/toyduel/   the JSON Schema of its data packages, its bundled package and a
                      sample list

A deployment would name it in HANGAR_GAME_PACKAGES=tests.toygame; the tests register it only inside their fixture
(tests/toygame/test_toygame.py), so no other test sees a fourth game.
"""
