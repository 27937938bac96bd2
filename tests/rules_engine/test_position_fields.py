"""The field readers the three systems' positions share (rules_engine/position_fields.py): one wording of each
message, values shown as JSON writes them, and the path of the bad value."""
from __future__ import annotations

import pytest

from rules_engine import position_fields as fields
from rules_engine import positions
from rules_engine.position_fields import (
    PositionError, key_path, need_bool, need_choice, need_int, need_list, need_number, need_object, need_strings, shown,
)


def _refused(read, *args) -> PositionError:
    with pytest.raises(PositionError) as raised:
        read(*args)
    return raised.value


def test_positions_reexports_the_one_position_error():
    assert positions.PositionError is fields.PositionError
    error = PositionError("sides[0].hand[2]", "unknown card code 'XX-001'")
    assert isinstance(error, ValueError) and str(error) == "sides[0].hand[2]: unknown card code 'XX-001'"
    assert str(PositionError("", "a position is a JSON object, not list")) == "a position is a JSON object, not list"


def test_a_path_joins_keys_with_dots_and_items_with_brackets_from_the_document():
    assert key_path("", "turn") == "turn"
    assert key_path("turn", "phase") == "turn.phase"
    assert key_path("sides", 0) == "sides[0]"
    assert key_path(key_path(key_path("sides", 1), "units"), 2) == "sides[1].units[2]"


def test_a_value_is_shown_as_json_writes_it():
    assert [shown(v) for v in (None, True, False, "yes", 3, 2.5, [1, "a"], {"k": None})] == [
        "null", "true", "false", '"yes"', "3", "2.5", '[1, "a"]', '{"k": null}']
    assert shown(list(range(625))) == "a list of 625 items"
    assert shown({f"key{i}": i for i in range(20)}) == "an object of 20 fields"
    assert shown("機獣") == '"機獣"'


def test_an_object_has_only_known_fields():
    assert need_object({"a": 1}, "turn", ("a", "b")) == {"a": 1}
    error = _refused(need_object, {"a": 1, "colour": "red"}, "sides[0]", ("a", "b", "c"))
    assert (error.path, error.message) == ("sides[0].colour", "unknown field (known: a, b, c)")
    error = _refused(need_object, {"x": 1}, "", ("a",))
    assert (error.path, error.message) == ("x", "unknown field (known: a)")
    error = _refused(need_object, [1, 2], "turn", ("a",))
    assert (error.path, error.message) == ("turn", "expected an object, got [1, 2]")


def test_an_integer_in_its_range():
    assert need_int(0, "a") == 0 and need_int(9, "a", 0, 9) == 9 and need_int(-5, "a", None) == -5
    assert _refused(need_int, 12, "heat", 0, 9).message == "expected an integer 0 … 9, got 12"
    assert _refused(need_int, -1, "damage").message == "expected an integer ≥ 0, got -1"
    assert _refused(need_int, True, "a", 0, 1).message == "expected an integer 0 … 1, got true"
    assert _refused(need_int, 2.5, "amount", None).message == "expected an integer, got 2.5"
    error = _refused(need_int, 4, "turn.round", 1, 3, " (the game's pulse rounds)")
    assert (error.path, error.message) == ("turn.round", "expected an integer 1 … 3 (the game's pulse rounds), got 4")


def test_a_boolean_a_number_and_a_list():
    assert need_bool(False, "a") is False and need_number(3, "a") == 3.0 and need_list((1, 2), "a") == [1, 2]
    assert _refused(need_bool, "yes", "down").message == 'expected true or false, got "yes"'
    assert _refused(need_bool, 1, "down").message == "expected true or false, got 1"
    assert _refused(need_number, None, "at[0]").message == "expected a number, got null"
    assert _refused(need_number, float("nan"), "at[0]").message == "expected a number, got NaN"
    assert _refused(need_number, False, "at[0]").message == "expected a number, got false"
    assert _refused(need_list, "a, b", "hand").message == 'expected a list, got "a, b"'


def test_a_choice_among_values():
    assert need_choice("y", "phase", ("x", "y")) == "y" and need_choice(None, "winner", (0, 1, None)) is None
    error = _refused(need_choice, "z", "phase", ("x", "y"))
    assert (error.path, error.message) == ("phase", 'expected one of "x", "y", got "z"')
    assert _refused(need_choice, True, "player", (0, 1)).message == "expected one of 0, 1, got true"


def test_a_list_of_strings_each_checked_at_its_index():
    assert need_strings(["b", "a", "b"], "used") == {"a", "b"}
    error = _refused(need_strings, ["pierce", "flying"], "sides[0].units[0].flags", frozenset({"pierce", "armor"}))
    assert (error.path, error.message) == ("sides[0].units[0].flags[1]", 'expected one of "armor", "pierce", '
                                                                         'got "flying"')
    error = _refused(need_strings, ["a", 3], "used")
    assert (error.path, error.message) == ("used[1]", "expected a string, got 3")
