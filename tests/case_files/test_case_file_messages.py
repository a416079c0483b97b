"""Load-time faults of case files that YAML or the schema would otherwise blur: unquoted
yes/no/numbers where text belongs, and non-numeric values for numeric ``expect`` fields.
Each is reported at ``file:line`` with what to write instead, before anything runs."""

from __future__ import annotations

import textwrap

import pytest

from pytest_asrbench.cases.loader import load_case_file
from tests.test_plugin import project, write  # noqa: F401 - the pytester fixture


def _errors(tmp_path, body: str) -> list[str]:
    path = tmp_path / "a.yaml"
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    loaded = load_case_file(path)
    if loaded.errors:
        assert loaded.cases == []  # a file with any fault runs nothing
    return [str(error).replace(f"{path}:", "a.yaml:") for error in loaded.errors]


@pytest.mark.parametrize(
    "entry, message",
    [
        ("kind: equal\n    texts: [yes, 'ok', no]",
         ["a.yaml:5: case 'c', item 1 of `texts`: write 'yes' in quotes: YAML reads yes as true, not as text",
          "a.yaml:5: case 'c', item 3 of `texts`: write 'no' in quotes: YAML reads no as false, not as text"]),
        ("kind: distinct\n    texts:\n      - off\n      - ~",
         ["a.yaml:6: case 'c', item 1 of `texts`: write 'off' in quotes: YAML reads off as false, not as text",
          "a.yaml:7: case 'c', item 2 of `texts`: write '~' in quotes: YAML reads ~ as null (no value), not as text"]),
        ("kind: untouched\n    texts:\n      -\n      - 'x'",
         ["a.yaml:6: case 'c', item 1 of `texts`: the value is empty, which YAML reads as null; write the text in "
          "quotes (\"\" for an empty text)"]),
        ("kind: normalize\n    text: 10:30\n    expect: 2024",
         ["a.yaml:5: case 'c', field `text`: write '10:30' in quotes: YAML reads 10:30 as the number 630, not as text",
          "a.yaml:6: case 'c', field `expect`: write '2024' in quotes: YAML reads 2024 as the number 2024, not as text"]),
        ("kind: score\n    reference: on\n    hypothesis: 'x'\n    expect: {rate: 0}",
         ["a.yaml:5: case 'c', field `reference`: write 'on' in quotes: YAML reads on as true, not as text"]),
        ("kind: equal\n    texts: ['true', \"no\", 'a']", []),  # quoted: plain text, no fault
    ],
    ids=["yes-no", "off-null", "empty", "time-and-year", "on-in-one-of", "quoted-is-fine"],
)
def test_unquoted_yaml_scalars_where_text_belongs(tmp_path, entry, message):
    assert _errors(tmp_path, f"language: en\ncases:\n  - id: c\n    {entry}\n") == message


@pytest.mark.parametrize(
    "expect, message",
    [
        ('{rate: "half"}', "field `expect.rate`: the text 'half' is not a number or null (no value) (it takes a number "
                           "such as 0.25, or null for an empty reference)"),
        ("{strict_rate: yes}", "field `expect.strict_rate`: true is not a number or null (no value)"),
        ("{wer_hi: '0.1'}", "field `expect.wer_hi`: the text '0.1' is not a number or null (no value)"),
        ("{substitutions: 1.5}", "field `expect.substitutions`: the number 1.5 is not a whole number (it is a count: "
                                 "write a whole number such as 2)"),
        ("{deletions: one}", "field `expect.deletions`: the text 'one' is not a whole number"),
        ("{insertions: -1}", "field `expect.insertions`: the number -1 is below the least value allowed: write 0 or more"),
        ("{hits: '3'}", "field `expect.hits`: the text '3' is not a whole number"),
        ("{reference_length: 4.2}", "field `expect.reference_length`: the number 4.2 is not a whole number"),
        ("{errors: null}", "field `expect.errors`: empty (null) is not a whole number"),
        ("{details.code_switch.rescued_errors: two}",
         "field `expect.details.code_switch.rescued_errors`: the text 'two' is not a whole number"),
    ],
)
def test_numeric_score_fields_must_be_numbers(tmp_path, expect, message):
    errors = _errors(tmp_path, f"""
        language: en
        cases:
          - id: c
            kind: score
            reference: a b
            hypothesis: a c
            expect: {expect}
    """)
    assert len(errors) == 1
    assert errors[0].startswith(f"a.yaml:7: case 'c', {message}")


@pytest.mark.parametrize("field, value", [("tolerance", '"tight"'), ("expect", '{max_rate: "low"}'),
                                          ("expect", '{rate: "0"}')])
def test_numeric_asr_fields_must_be_numbers(tmp_path, field, value):
    errors = _errors(tmp_path, f"""
        language: en
        cases:
          - id: c
            kind: asr
            audio: x.wav
            reference: a b
            {field}: {value}
    """)
    assert len(errors) == 1 and "is not a number" in errors[0] and errors[0].startswith("a.yaml:7: ")


def test_valid_numbers_and_details_keys_still_load(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text(textwrap.dedent("""
        language: hi
        cases:
          - id: c
            kind: score
            reference: a b
            hypothesis: a c
            expect: {rate: 0.5, strict_rate: 0.5, substitutions: 1, hits: 1, reference_length: 2, errors: 1,
                     wer_hi: 0.5, details.code_switch.english_words: 2, details.code_switch.languages.hi.rate: 0.5}
          - id: empty
            kind: score
            reference: ""
            hypothesis: x
            expect: {rate: null, insertions: 1}
    """), encoding="utf-8")
    loaded = load_case_file(path)
    assert loaded.errors == [] and [case.id for case in loaded.cases] == ["c", "empty"]


@pytest.mark.parametrize(
    "fields, message",
    [
        ("kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    expect: {max_rate: .nan}",
         ["a.yaml:7: case 'c', field `expect.max_rate`: .nan must be a finite number, not NaN or infinity"]),
        ("kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    tolerance: .inf\n    expect: {rate: -.Inf}",
         ["a.yaml:7: case 'c', field `tolerance`: .inf must be a finite number, not NaN or infinity",
          "a.yaml:8: case 'c', field `expect.rate`: -.Inf must be a finite number, not NaN or infinity"]),
        ("kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    tolerance: .NaN\n    expect: {rate: 0.5}",
         ["a.yaml:7: case 'c', field `tolerance`: .NaN must be a finite number, not NaN or infinity"]),
        ("kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    expect: {rate: '.nan'}",  # quoted: text
         ["a.yaml:7: case 'c', field `expect.rate`: the text '.nan' is not a number or null (no value) (it takes "
          "a number such as 0.25, or null for an empty reference)"]),
    ],
    ids=["nan-bound", "inf-tolerance-and-rate", "nan-tolerance", "quoted-is-text"],
)
def test_non_finite_numbers_are_refused_at_load(tmp_path, fields, message):
    assert _errors(tmp_path, f"language: en\ncases:\n  - id: c\n    {fields}\n") == message


_SCORE = "kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    "
_BENCHMARK = "kind: benchmark\n    references: refs\n    hypotheses: hyps\n    "
_WRITE = "(a decimal point and a signed exponent)"


@pytest.mark.parametrize(
    "language, fields, message",
    [
        ("en", _SCORE + "expect: {rate: 1e-5}",
         f"a.yaml:7: case 'c', field `expect.rate`: YAML 1.1 reads 1e-5 as text, not as a number: write 1.0e-5 {_WRITE}, "
         "or quote it if you mean the text"),
        ("en", _SCORE + "expect: {max_rate: 2E3}",
         f"a.yaml:7: case 'c', field `expect.max_rate`: YAML 1.1 reads 2E3 as text, not as a number: write 2.0e+3 "
         f"{_WRITE}, or quote it if you mean the text"),
        ("en", _SCORE + "expect: {rate: 1.5e-1}\n    tolerance: 1e-5",
         f"a.yaml:8: case 'c', field `tolerance`: YAML 1.1 reads 1e-5 as text, not as a number: write 1.0e-5 {_WRITE}"),
        ("en", _SCORE + "tolerance: 1.0e5\n    expect: {rate: 0.5}",
         f"a.yaml:7: case 'c', field `tolerance`: YAML 1.1 reads 1.0e5 as text, not as a number: write 1.0e+5 {_WRITE}"),
        ("en", _SCORE + "expect: {rate: 1e400}",
         "a.yaml:7: case 'c', field `expect.rate`: 1e400 is not a finite number (infinity, beyond the largest "
         "number): write a finite number such as 0.25"),
        ("en", _SCORE + "expect: {rate: nan}",
         "a.yaml:7: case 'c', field `expect.rate`: nan is not a finite number (NaN): write a finite number such as 0.25"),
        ("en", _SCORE + "tolerance: -inf\n    expect: {rate: 0.5}",
         "a.yaml:7: case 'c', field `tolerance`: -inf is not a finite number (infinity, beyond the largest number): "
         "write a finite number such as 0.25"),
        ("th", _BENCHMARK + "expect:\n      overall.rate: 1e-2",
         f"a.yaml:8: case 'c', field `expect.overall.rate`: YAML 1.1 reads 1e-2 as text, not as a number: write 1.0e-2 "
         f"{_WRITE}, or quote it if you mean the text"),
        ("th", _BENCHMARK + "expect:\n      overall.ci95: [0.1, 2e-1]",
         f"a.yaml:8: case 'c', item 2 of `expect.overall.ci95`: YAML 1.1 reads 2e-1 as text, not as a number: write "
         f"2.0e-1 {_WRITE}, or quote it if you mean the text"),
        ("th", _BENCHMARK + "tolerance: 1e-9",
         f"a.yaml:7: case 'c', field `tolerance`: YAML 1.1 reads 1e-9 as text, not as a number: write 1.0e-9 {_WRITE}"),
    ],
    ids=["score-rate", "capital-e-no-sign", "score-tolerance", "point-no-sign", "beyond-the-largest", "nan-word",
         "minus-inf-word", "benchmark-rate", "benchmark-interval-item", "benchmark-tolerance"],
)
def test_a_number_yaml_reads_as_text_is_refused_at_load_with_the_form_to_write(tmp_path, language, fields, message):
    assert _errors(tmp_path, f"language: {language}\ncases:\n  - id: c\n    {fields}\n") == [message]


@pytest.mark.parametrize("text", ["1.0e-5", "2.0e+3", "1.0e+5", "-1.5e-1", ".5e+3"])
def test_the_suggested_forms_are_numbers_in_a_case_file(text):
    from pytest_asrbench.cases.yaml_lines import parse

    assert parse(f"a: {text}\n").value["a"] == float(text)


def test_number_like_texts_stay_texts_in_text_fields(tmp_path):
    assert _errors(tmp_path, "language: en\ncases:\n  - id: c\n    kind: equal\n    texts: [1e5, '1e-5']\n") == []


@pytest.mark.parametrize(
    "fields, line",
    [
        ("kind: score\n    reference: 'a b'\n    hypothesis: 'a c'\n    expect: {rate: 0.5, tolerance: 0.01}", 7),
        ("kind: benchmark\n    references: refs\n    hypotheses: hyps\n    expect:\n      overall.rate: 0.1\n"
         "      tolerance: 0.01", 9),
    ],
    ids=["score", "benchmark"],
)
def test_tolerance_inside_expect_says_to_move_it_out(tmp_path, fields, line):
    language = "th" if "benchmark" in fields else "en"
    assert _errors(tmp_path, f"language: {language}\ncases:\n  - id: c\n    {fields}\n") == [
        f"a.yaml:{line}: case 'c': expect.tolerance: tolerance is a field of the case, not of expect: move it out "
        "(next to expect, e.g. `tolerance: 0.005`)"]


@pytest.mark.parametrize("value, message", [
    ('"low"', "field `expect.max_rate`: the text 'low' is not a number (it takes a number such as 0.25)"),
    ("null", "field `expect.max_rate`: empty (null) is not a number (it takes a number such as 0.25)"),
    ("-0.1", "field `expect.max_rate`: the number -0.1 is below the least value allowed: write 0 or more (an upper "
             "bound of the rate (the tolerance added))"),
])
def test_a_score_bound_that_is_not_a_number_is_refused_at_load(tmp_path, value, message):
    errors = _errors(tmp_path, f"language: en\ncases:\n  - id: c\n    kind: score\n    reference: 'a b'\n"
                               f"    hypothesis: 'a c'\n    expect: {{max_rate: {value}}}\n")
    assert len(errors) == 1 and errors[0].startswith(f"a.yaml:7: case 'c', {message}")


BOUNDED = """
language: en
cases:
  - id: within
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {max_rate: 0.34, substitutions: 1}
  - id: over
    kind: score
    reference: the cat sat on the mat
    hypothesis: the bat sat on mat
    expect: {max_rate: 0.3}
"""


def test_a_score_case_checks_its_max_rate_bound_when_it_runs(project):
    write(project, "cases/en/a.yaml", BOUNDED)
    result = project.runpytest_subprocess("--asrbench", "cases", "--snapshot-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*stt_wer 33.3% > max 30.0% (rate 0.3333333333333333, max_rate 0.3, tolerance 1e-09)*"])
    assert "no such value" not in result.stdout.str()


def test_a_case_id_too_long_for_a_snapshot_file_name_is_refused_at_load(tmp_path):
    from pytest_asrbench.cases.schema import MAX_ID_LENGTH

    long_id = "a" * 300
    errors = _errors(tmp_path, f"language: en\ncases:\n  - id: ok\n    kind: equal\n    texts: ['a', 'a']\n"
                               f"  - id: {long_id}\n    kind: equal\n    texts: ['a', 'a']\n")
    assert errors == [f"a.yaml:6: case '{'a' * 40}...', field `id`: the id is 300 characters long; ids are at most "
                      f"{MAX_ID_LENGTH} (the id names its snapshot file, and file names are limited to 255 bytes): "
                      "shorten it"]
    assert _errors(tmp_path, f"language: en\ncases:\n  - id: {'a' * MAX_ID_LENGTH}\n    kind: equal\n"
                             "    texts: ['a', 'a']\n") == []


def test_the_longest_id_records_and_keeps_its_snapshot_for_review(project):
    from pytest_asrbench.cases.schema import MAX_ID_LENGTH

    case_id = "b" * MAX_ID_LENGTH
    write(project, "cases/en/a.yaml", f"language: en\ncases:\n  - id: {case_id}\n    kind: normalize\n"
                                      "    text: 'A'\n    expect: 'a'\n")
    project.runpytest_subprocess("--asrbench", "cases", "--snapshot-update").assert_outcomes(passed=1)
    write(project, "cases/en/a.yaml", f"language: en\ncases:\n  - id: {case_id}\n    kind: normalize\n"
                                      "    text: 'B'\n    expect: 'b'\n")
    project.runpytest_subprocess("--asrbench", "cases", "--snapshot-update", "--asrbench-pending").assert_outcomes(passed=1)
    assert (project.path / "snapshots" / "en" / "a" / f"{case_id}.json.pending").is_file()


@pytest.mark.parametrize("character, shown", [("\x00", "U+0000 (NUL)"), ("\x1b", "U+001B")])
def test_a_control_character_is_reported_at_its_own_line_and_column(tmp_path, character, shown):
    errors = _errors(tmp_path, "language: hi\n# मेरी फ़्लाइट\ncases:\n  - id: a\n"
                               f"    texts: ['a{character}b', 'x']\n    kind: equal\n")
    assert errors == [f"a.yaml:5: the control character {shown} at column 15 is not allowed in a case file: "
                      "remove it, or write it as an escape in a double-quoted string "
                      f'("\\x{ord(character):02x}")']


def test_a_misspelt_field_names_the_field_it_is_close_to(tmp_path):
    errors = _errors(tmp_path, """
        language: en
        cases:
          - id: c
            kind: normalize
            text: x
            expcet: x
        """)
    assert errors == [
        "a.yaml:3: case 'c': a normalize case needs the field `expect`: rename `expcet` to `expect` (the normalized "
        "form the text must have; each kind's fields: `asrbench add-case --help`, or the README's \"Writing cases\")",
        "a.yaml:6: case 'c': unknown field `expcet`: did you mean `expect`? remove it or fix its spelling (a "
        "normalize case takes: expect, id, kind, language, metric, note, source, text, xfail)"]
    top = _errors(tmp_path, """
        langauge: en
        cases:
          - id: c
            kind: equal
            texts: [a, b]
        """)
    assert top[0] == ("a.yaml:1: unknown field `langauge`: did you mean `language`? remove it or fix its spelling "
                      "(the top of the file takes: cases, description, language, metric)")
    far = _errors(tmp_path, """
        language: en
        cases:
          - id: c
            kind: equal
            texts: [a, b]
            zzz: 1
        """)
    assert far == ["a.yaml:6: case 'c': unknown field `zzz`: remove it or fix its spelling (an equal case takes: id, "
                   "kind, language, metric, note, source, texts, xfail)"]
    nested = _errors(tmp_path, """
        language: en
        cases:
          - id: c
            kind: asr
            audio: x.wav
            reference: a
            engine:
              modle: base
              device: gpu
        """)
    assert nested[0].startswith("a.yaml:8: case 'c', field `engine`: unknown field `modle`: did you mean `model`? "
                                "remove it or fix its spelling (field `engine` takes: ")
    assert nested[1] == ("a.yaml:9: case 'c', field `engine.device`: unknown value 'gpu': use one of: cpu, cuda, "
                         "auto")
    kind = _errors(tmp_path, "language: en\ncases:\n  - id: c\n    kind: scor\n    reference: a\n")
    assert kind == ["a.yaml:4: case 'c', field `kind`: unknown kind 'scor': did you mean `score`? use one of: "
                    "equal, distinct, untouched, normalize, score, signature, asr, benchmark"]


def test_a_text_where_a_list_belongs_says_how_to_write_a_list(tmp_path):
    errors = _errors(tmp_path, """
        language: en
        cases:
          - id: c
            kind: equal
            texts: "five dollars"
        """)
    assert errors == ["a.yaml:5: case 'c', field `texts`: the text 'five dollars' is not a list (it takes a list: "
                      "one item per line starting with '- ', or [first, second])"]
    inside = _errors(tmp_path, "language: en\ncases:\n  - id: c\n    kind: score\n    reference: a\n"
                               "    hypothesis: [b, [c]]\n    expect: {rate: 0}\n")
    assert inside == ["a.yaml:6: case 'c', item 2 of `hypothesis`: a list of 1 item(s) is not text"]


_DOCS = "each kind's fields: `asrbench add-case --help`, or the README's \"Writing cases\""


@pytest.mark.parametrize("body, message", [
    ("language: en\ncases:\n  - id: c\n    kind: normalize\n    text: x\n",
     "a.yaml:3: case 'c': a normalize case needs the field `expect`: add a line such as `expect: \"it is fine\"` "
     f"under the case (the normalized form the text must have; {_DOCS})"),
    ("language: en\ncases:\n  - id: c\n    kind: score\n    reference: a\n    hypothesis: b\n",
     "a.yaml:3: case 'c': a score case needs the field `expect`: add a line such as `expect: {rate: 0.25}` under the "
     "case (values of the Score to check: rate, hits, substitutions, deletions, insertions, reference_length, errors, "
     "or any key (or dotted path) of details; max_rate, a bound: the rate is at most this (plus the tolerance); "
     f"{_DOCS})"),
    ("language: en\ncases:\n  - kind: equal\n    texts: [a, b]\n",
     "a.yaml:3: case #1: an equal case needs the field `id`: add a line such as `id: money-words-and-digits` under "
     "the case (unique in its file; letters, digits, _ . -; at most 200 characters (the id names its snapshot file); "
     f"{_DOCS})"),
    ("language: en\ncases:\n  - id: c\n    texts: [a, b]\n",
     "a.yaml:3: case 'c': a case needs the field `kind`: add a line such as `kind: score` under the case (what the "
     "case checks; it selects the case's other fields; the kinds: equal, distinct, untouched, normalize, score, "
     f"signature, asr, benchmark; {_DOCS})"),
    ("language: en\n",
     f"a.yaml:1: a case file needs the field `cases`: add `cases:` at the top of the file ({_DOCS})"),
    ("language: en\ncases:\n  - id: c\n    kind: distinct\n    texts: [a]\n",
     "a.yaml:5: case 'c', field `texts`: the list has 1 item(s), fewer than the 2 it needs (exactly two texts that "
     "must normalize to different strings; e.g. `texts: [flight, fight]`)"),
    ("language: en\ncases:\n  - id: c\n    kind: score\n    reference: a\n    hypothesis: b\n    expect: {}\n",
     "a.yaml:7: case 'c', field `expect`: the mapping is empty: name at least 1 value(s) (values of the Score to "
     "check: rate, hits, substitutions, deletions, insertions, reference_length, errors, or any key (or dotted path) "
     "of details; max_rate, a bound: the rate is at most this (plus the tolerance); e.g. `expect: {rate: 0.25}`)"),
], ids=["normalize expect", "score expect", "id", "kind", "cases", "distinct texts", "empty expect"])
def test_a_missing_or_short_field_says_what_to_write_and_where_every_user_reads_more(tmp_path, body, message):
    path = tmp_path / "a.yaml"
    path.write_text(body, encoding="utf-8")
    assert [str(error).replace(f"{path}:", "a.yaml:") for error in load_case_file(path).errors] == [message]


#: jsonschema's own wording, which no message a user reads may carry.
JSONSCHEMA_WORDING = ("is not of type", "Additional properties", "should be non-empty", "is too short", "is too long",
                      "is not one of", "is less than the minimum", "does not match", "non-unique elements",
                      "is not valid under any", "is a required property", "was unexpected", "was expected",
                      "is greater than the maximum", "Unevaluated properties")

#: One bad value per rule of the schema a user can break, in every place that has one.
BAD_ENTRIES = [
    "kind: equal\n    texts: 'a'", "kind: equal\n    texts: [a]", "kind: equal\n    texts: [a, 5, [b]]",
    "kind: distinct\n    texts: [a, b, c]", "kind: untouched\n    texts: []", "kind: normalize\n    text: [x]\n    expect: x",
    "kind: normalize\n    text: x\n    expect: [x]", "kind: score\n    reference: {a: 1}\n    hypothesis: b\n    expect: {rate: 0}",
    "kind: score\n    reference: a\n    hypothesis: b\n    expect: {rate: -1, hits: x, rat: 1}\n    tolerance: -1",
    "kind: score\n    reference: []\n    hypothesis: [b]\n    expect: {max_rate: x}",
    "kind: signature\n    metric: stt_wer\n    version: 1\n    config_version: '1'\n    signature: XYZ\n"
    "    components: {a: 1}",
    "kind: asr\n    audio: 5\n    reference: a\n    engine: {device: gpu, beam_size: 0, nmae: x}\n    parity: {x: 1}",
    "kind: benchmark\n    references: r\n    hypotheses: h\n    sets: [a, a]\n    seed: -1\n    resamples: x",
    "kind: scor\n    texts: [a, b]", "kind: equal\n    texts: [a, b]\n    xfail: ''\n    note: 5\n    id2: x",
]


@pytest.mark.parametrize("entry", BAD_ENTRIES)
def test_every_schema_error_says_which_field_where_and_what_it_takes_in_the_users_terms(tmp_path, entry):
    errors = _errors(tmp_path, f"language: en\ncases:\n  - id: c\n    {entry}\n")
    assert errors, entry
    for error in errors:
        assert not [words for words in JSONSCHEMA_WORDING if words in error], error
        assert error.startswith("a.yaml:") and error.split(":")[1].isdigit(), error  # path:line
        assert "case 'c'" in error, error  # which case (and field, when a field is at fault)
    top = _errors(tmp_path, "language: 5\nmetric: [x]\ncases: {a: 1}\nlangauge: en\n")
    assert top and not [error for error in top for words in JSONSCHEMA_WORDING if words in error], top


def test_every_required_field_of_every_kind_has_an_example_line_or_is_machine_written():
    from pytest_asrbench.cases.field_help import example_line
    from pytest_asrbench.cases.loader import case_schema

    defs = case_schema()["$defs"]
    for name in ("id", "kind"):
        assert example_line(name, defs["common"]["properties"][name]), name
    for key, fragment in defs.items():
        if key.startswith("kind_") and key != "kind_signature":  # a signature case is re-recorded, not typed
            for name in fragment.get("required", []):
                assert example_line(name, fragment["properties"][name]), (key, name)


def test_no_case_file_message_names_a_file_inside_the_package(tmp_path):
    bodies = ["language: en\n", "language: en\ncases: []\n"] + [
        f"language: en\ncases:\n  - id: c\n    kind: {kind}\n{extra}"
        for kind in ("equal", "distinct", "untouched", "normalize", "score", "signature", "asr", "benchmark", "scor")
        for extra in ("", "    texts: []\n    expect: {}\n    parity: {}\n    typo: 1\n")]
    for index, body in enumerate(bodies):
        path = tmp_path / f"c{index}.yaml"
        path.write_text(body, encoding="utf-8")
        errors = [str(error) for error in load_case_file(path).errors]
        assert errors, body
        assert not [error for error in errors if "pytest_asrbench" in error or "schema.json" in error], errors


def test_add_case_help_lists_each_kind_with_its_fields_and_an_example_line(capsys):
    from pytest_asrbench.cli import main

    with pytest.raises(SystemExit):
        main(["add-case", "--help"])
    shown = capsys.readouterr().out
    assert "the fields each kind of case needs in a case file" in shown
    assert "  kind: normalize" in shown and '    expect: "it is fine"' in shown
    assert "  kind: score" in shown and "    expect: {rate: 0.25}" in shown


def test_duplicate_ids_are_reported_with_the_schema_faults_in_one_pass(tmp_path):
    # a reviewer fixing the schema faults must not meet the duplicates only on the next run
    errors = _errors(tmp_path, """
        language: en
        cases:
          - id: a
            kind: equal
            texts: ["x", "y"]
          - id: a
            kind: scor
          - id: b
            kind: equal
            texts: ["x", "y"]
          - id: b
            kind: equal
            texts: ["x", "z"]
          - kind: equal
            texts: ["x", "w"]
        """)
    assert "a.yaml:6: duplicate case id 'a' (first on line 3); ids must be unique in a file" in errors
    assert "a.yaml:11: duplicate case id 'b' (first on line 8); ids must be unique in a file" in errors
    assert any(error.startswith("a.yaml:7: case 'a', field `kind`: unknown kind 'scor'") for error in errors)
    assert errors == sorted(errors, key=lambda error: int(error.split(":")[1]))  # in file order
    assert len([error for error in errors if "duplicate" in error]) == 2


def test_duplicate_ids_alone_are_still_reported(tmp_path):
    errors = _errors(tmp_path, """
        language: en
        cases:
          - id: a
            kind: equal
            texts: ["x", "y"]
          - id: a
            kind: equal
            texts: ["x", "z"]
        """)
    assert errors == ["a.yaml:6: duplicate case id 'a' (first on line 3); ids must be unique in a file"]
