"""Every message the api can say has a Chinese translation; both catalogues list the same ids."""

from __future__ import annotations

import subprocess
import sys

from babel.messages.pofile import read_po

from api.settings import ROOT

CATALOGUES = {"zh_Hans_CN": True, "en_US": False}  # language -> must every msgstr be filled?


def extracted_ids(tmp_path) -> set[str]:
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "N_",
            "-o",
            str(pot),
            "--no-location",
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        return {m.id for m in read_po(f) if m.id}


def catalogue(language: str) -> dict:
    with (ROOT / "api" / "translations" / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = read_po(f)
    # pybabel compile skips a whole catalogue whose header is marked fuzzy.
    assert not po.fuzzy, f"{language}: the catalogue header is marked fuzzy"
    return {m.id: m for m in po if m.id}


def test_catalogues_cover_every_message(tmp_path):
    ids = extracted_ids(tmp_path)
    for language, must_translate in CATALOGUES.items():
        messages = catalogue(language)
        assert ids - set(messages) == set(), f"{language} lacks messages: run `make update-translations`"
        assert [mid for mid in ids if messages[mid].fuzzy] == [], f"{language}: review the fuzzy (guessed) ones"
        if must_translate:
            assert [mid for mid in ids if not messages[mid].string] == [], f"{language} has untranslated messages"
