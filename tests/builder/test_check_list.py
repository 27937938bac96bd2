"""`manage.py check_list FILE [--json] [--lang]`: exit 0 legal, 1 illegal, 2 unreadable/malformed file."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from .conftest import hagmi_doc, mwda_doc

pytestmark = pytest.mark.django_db


def run(path: Path, *flags: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("check_list", str(path), *flags, stdout=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_legal_json_list_exits_0(catalogs, tmp_path):
    code, out = run(write(tmp_path, "deck.json", json.dumps(hagmi_doc())))
    assert code == 0
    assert "LEGAL" in out and "ILLEGAL" not in out and "main 40" in out


def test_illegal_list_exits_1_and_names_rule_H1(catalogs, tmp_path):
    code, out = run(write(tmp_path, "deck.json", json.dumps(hagmi_doc(weapons=10))))
    assert code == 1
    assert "ILLEGAL" in out and "H1" in out and "hagmi.deck_size" in out


def test_json_output_is_exactly_the_validation_result(catalogs, tmp_path):
    code, out = run(write(tmp_path, "army.json", json.dumps(mwda_doc(("MT-001", 2), ("MT-002", 1)))), "--json")
    assert code == 1
    result = json.loads(out)
    assert set(result) == {"legal", "system", "format", "violations", "summary"}
    assert result["summary"]["points"] == 360 and result["violations"][0]["rule"] == "M1"


def test_japanese_messages(catalogs, tmp_path):
    code, out = run(write(tmp_path, "deck.json", json.dumps(hagmi_doc(weapons=10))), "--lang", "ja")
    assert code == 1 and "です" in out


def test_a_text_list_is_read_too(catalogs, tmp_path):
    text = "System: mwda\nFormat: tournament-300\n[army]\n1 Trial Mech\n1 MT-002\n"
    code, out = run(write(tmp_path, "army.list", text))  # not .txt, not JSON: read as text
    assert code == 0 and "LEGAL" in out


def test_a_bad_text_line_exits_2_naming_file_and_line(catalogs, tmp_path):
    path = write(tmp_path, "army.txt", "System: mwda\n[army]\n1 Trial Mech\n2 Nothing Like It\n")
    with pytest.raises(CommandError) as error:
        run(path)
    assert error.value.returncode == 2
    assert str(path) in str(error.value) and "line 4" in str(error.value)


def test_malformed_json_exits_2_naming_the_file(catalogs, tmp_path):
    path = write(tmp_path, "deck.json", '{"schema": "hangar.list/1",\n "system": ')
    with pytest.raises(CommandError) as error:
        run(path)
    assert error.value.returncode == 2 and str(path) in str(error.value)


@pytest.mark.parametrize("name,content", [("missing.json", None), ("binary.txt", b"\xff\xfe\xfa")])
def test_unreadable_files_exit_2(catalogs, tmp_path, name, content):
    path = tmp_path / name if content is None else write(tmp_path, name, content)
    with pytest.raises(CommandError) as error:
        run(path)
    assert error.value.returncode == 2 and name in str(error.value)


def test_a_system_without_cards_exits_2(db, tmp_path):
    with pytest.raises(CommandError) as error:
        run(write(tmp_path, "deck.json", json.dumps(hagmi_doc())))
    assert error.value.returncode == 2 and "load_packages" in str(error.value)


def test_the_real_process_exit_status_is_2_without_a_traceback(tmp_path):
    """Through manage.py itself (no database needed: the file is refused before the catalog is read)."""
    import os
    import subprocess
    import sys

    path = write(tmp_path, "deck.json", "{not json")
    env = {**os.environ, "HANGAR_INSECURE_DEV_KEY": "1"}
    manage = Path(__file__).resolve().parents[2] / "manage.py"
    done = subprocess.run([sys.executable, str(manage), "check_list", str(path)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert str(path) in done.stderr and "Traceback" not in done.stderr
