"""YAML syntax errors in one wording, whichever parser found them.

libyaml (PyYAML's C parser) and PyYAML's pure-Python parser are ports of one another, but they
word their errors differently ("did not find expected ',' or ']'" against "expected ',' or ']',
but got '<stream end>'") and the pure-Python one names tokens where libyaml names nothing.  The
loader parses with libyaml where it is installed; re-parsing a broken file with the pure-Python
parser to borrow its wording cost time in proportion to the file (and far worse on deep nesting),
so instead both parsers' messages are brought to one form here: the problem as the pure-Python
parser words it, without the token it found, followed by what the text holds at the error's
location, and the parser's context in parentheses.

A few errors are found at different places by the two parsers (a tab in the indentation, the
point where a missing ':' is noticed), and libyaml accepts tabs in some places where the
pure-Python parser does not; README "Spec files" says so.
"""

from __future__ import annotations

import re

import yaml

from .errors import Diagnostic
from .model import Location

# libyaml's words -> the pure-Python parser's, for the same problem
_PROBLEM_WORDS = {
    "mapping values are not allowed in this context": "mapping values are not allowed here",
    "block sequence entries are not allowed in this context": (
        "block sequence entries are not allowed here"
    ),
    "mapping keys are not allowed in this context": "mapping keys are not allowed here",
    "did not find expected node content": "expected the node content",
    "did not find expected <document start>": "expected '<document start>'",
    "did not find expected comment or line break": "expected a comment or a line break",
    "expected chomping or indentation indicators": "expected a comment or a line break",
    "did not find expected hexdecimal number": "expected a hexadecimal escape sequence",
    "control characters are not allowed": "special characters are not allowed",
}
# "expected <block end>" depends on what the parser was in
_BLOCK_END = {
    "while parsing a block collection": "expected '-' indicator",
    "while parsing a block mapping": "expected key",
}
_DIRECTIVE_NAME = (
    "could not find expected directive name",
    "expected alphabetic or numeric character",
)
_PURE_FOUND = re.compile(r"^(?P<problem>.*?), but (?:found|got) .*$", re.DOTALL)
# libyaml's wording; the character is added from the text
_NO_TOKEN = "found character that cannot start any token"
_TAB_PROBLEMS = (_NO_TOKEN, "found a tab character that violates indentation")
_PURE_CHARACTER = re.compile(r"^found character (?P<char>'.*') that cannot start any token$")
_PURE_ESCAPE = re.compile(r"^expected escape sequence of \d+ hexadecimal numbers$")
_PURE_ESCAPE_CHAR = re.compile(r"^found unknown escape character .*$")


def canonical_problem(problem: str, context: str | None) -> str:
    """`problem` of either parser in the wording that both give."""
    match = _PURE_FOUND.match(problem)
    if match:
        problem = match["problem"]
    if _PURE_CHARACTER.match(problem):
        problem = _NO_TOKEN
    elif _PURE_ESCAPE.match(problem):
        problem = "expected a hexadecimal escape sequence"
    elif _PURE_ESCAPE_CHAR.match(problem):
        problem = "found unknown escape character"
    problem = _PROBLEM_WORDS.get(problem, problem)
    if context == "while scanning a directive" and problem in _DIRECTIVE_NAME:
        return "expected a directive name"
    if problem == "expected <block end>" and context in _BLOCK_END:
        return _BLOCK_END[context]
    if problem.startswith("did not find expected "):
        return "expected " + problem[len("did not find expected ") :]
    return problem


def text_offset(text: str, line: int, column: int) -> int:
    """The index in ``text`` of 0-based ``line`` and ``column``, as both parsers count them
    (characters; a line ends at '\\n', '\\r\\n', '\\r' or one of Unicode's line separators).  A mark's own index is not used: libyaml's
    counts differently from the pure-Python parser's on some inputs."""
    start = 0
    for _ in range(line):
        newline = _LINE_BREAK.search(text, start)
        if newline is None:
            return len(text)
        start = newline.end()
    return min(start + column, len(text))


_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def found_at(text: str, index: int) -> str:
    """What the text holds at character ``index``, for 'but found ...'."""
    if index >= len(text):
        return "the end of the file"
    char = text[index]
    if char == "\n" or char == "\r":
        return "the end of the line"
    if char == "\t":
        return "a tab"
    if char == " ":
        return "a space"
    word = _WORD.match(text, index, index + 40)
    return repr(word[0]) if word else repr(char)


_WORD = re.compile(r"\w+")


def syntax_error(text: str, file: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    """A located diagnostic for a YAML syntax error from libyaml or the pure-Python parser.

    The location is where the problem is (for an unfinished simple key, where the key starts:
    the parsers notice the missing ':' at different places)."""
    context = exc.context
    problem = canonical_problem(exc.problem or "malformed YAML", context)
    mark = exc.problem_mark or exc.context_mark
    if problem == "could not find expected ':'" and exc.context_mark is not None:
        mark = exc.context_mark
    if mark is None:
        return Diagnostic(Location(file, 1, 1), None, f"invalid YAML: {problem}")
    at = text_offset(text, mark.line, mark.column)
    message = problem
    if problem in _TAB_PROBLEMS and text[at : at + 1] == "\t":
        # libyaml and the pure-Python parser see a misplaced tab in different contexts
        return Diagnostic(
            _location(file, mark), None, "invalid YAML: found a tab where YAML allows only spaces"
        )
    if problem == _NO_TOKEN:
        message = f"found {found_at(text, at)}, which cannot start any token"
    elif problem.startswith("expected ") or problem.startswith("could not find "):
        message = f"{problem}, but found {found_at(text, at)}"
    if context:
        message = f"{message} ({context})"
    return Diagnostic(_location(file, mark), None, f"invalid YAML: {message}")


def _location(file: str, mark: yaml.Mark) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)
