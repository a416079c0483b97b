"""YAML case files: loading with line numbers, schema validation, and one runner per kind."""

from pytest_asrbench.cases.loader import CaseFile, load_case_file
from pytest_asrbench.cases.model import Case, CaseResult

__all__ = ["Case", "CaseFile", "CaseResult", "load_case_file"]
