"""maild/parsing.py: line-by-line parsing and diagnostics in words, with a small grammar of its own."""

from __future__ import annotations

import pytest
from lark import Lark, Tree

from maild.parsing import OrderError, SyntaxHelp, format_diagnostic, load_parser, parse_orders
from maild.ruleset import Diagnostic, Order, load_ruleset

# A toy game: "move N to PLACE" and "wait".
GRAMMAR = r"""
start: move | wait
move: MOVE NUMBER TO PLACE
wait: WAIT
MOVE: /move\b/i
WAIT: /wait\b/i
TO: /to\b/i
NUMBER: /-?\d+/
PLACE: /[a-z]+/i
%ignore " "
"""
PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual")
HELP = SyntaxHelp(
    words={"MOVE": "'move'", "WAIT": "'wait'", "TO": "'to'", "NUMBER": "a number", "PLACE": "a place"},
    examples={"move": "move 3 to rome", "wait": "wait"},
    hints=(("how many steps", ["move", "move x"]),),
)


def build(tree: Tree, line: int, text: str) -> Order:
    order = tree.children[0]
    assert isinstance(order, Tree)
    if order.data == "wait":
        return Order(line, text, "wait", {}, "wait")
    steps = int(order.children[1])
    if steps <= 0:
        raise OrderError(f"the number of steps must be at least 1, found '{steps}'")
    place = str(order.children[3])
    return Order(line, text, "move", {"steps": steps, "place": place}, f"move {steps} to {place}")


def parse(text: str) -> tuple[list[Order], list[Diagnostic]]:
    result = parse_orders(PARSER, text, build, HELP)
    return result.orders, result.diagnostics


def test_every_line_is_an_order_or_a_diagnostic_with_its_line_number() -> None:
    orders, diagnostics = parse("move 3 to rome\n\n  wait  \nmove to rome\n")
    assert [(o.line, o.text, o.summary) for o in orders] == [(1, "move 3 to rome", "move 3 to rome"),
                                                              (3, "wait", "wait")]
    assert [(d.line, d.text) for d in diagnostics] == [(4, "move to rome")]


def test_blank_lines_and_header_lines_are_skipped() -> None:
    orders, diagnostics = parse("#toy alice secret\n\n   \n# a comment\nwait\n")
    assert [o.line for o in orders] == [5]
    assert diagnostics == []


def test_a_bad_line_does_not_hide_the_others() -> None:
    orders, diagnostics = parse("wait\nfly to rome\nmove 2 to paris")
    assert [o.kind for o in orders] == ["wait", "move"]
    assert [d.line for d in diagnostics] == [2]


def test_unexpected_word_says_where_what_was_expected_and_an_example() -> None:
    _, (d,) = parse("move 3 rome")
    assert d.message == "expected 'to' after '3', but found 'rome', e.g. move 3 to rome"


def test_line_ending_too_early() -> None:
    _, (d,) = parse("move 3 to")
    assert d.message == "expected a place after 'to', but the line ends there, e.g. move 3 to rome"


def test_unknown_first_word_offers_every_example() -> None:
    _, (d,) = parse("fly to rome")
    assert d.message == ("expected 'move' or 'wait' at the start of the line, but found 'fly', "
                         "e.g. move 3 to rome or wait")


def test_extra_words_after_a_complete_order() -> None:
    _, (d,) = parse("wait a bit")
    assert d.message == "expected the end of the line after 'wait', but found 'a', e.g. wait"


def test_hint_replaces_terminal_words_where_an_example_fails_the_same_way() -> None:
    _, diagnostics = parse("move\nmove to rome")
    assert [d.message for d in diagnostics] == [
        "expected how many steps after 'move', but the line ends there, e.g. move 3 to rome",
        "expected how many steps after 'move', but found 'to', e.g. move 3 to rome",
    ]


def test_order_error_from_the_builder_becomes_a_diagnostic() -> None:
    _, (d,) = parse("move 0 to rome")
    assert d.message == "the number of steps must be at least 1, found '0', e.g. move 3 to rome"


def test_unlexable_character() -> None:
    _, (d,) = parse("move 3 to r%me")
    # PLACE matched "r"; "%" is no terminal at all.
    assert d.message.startswith("expected the end of the line after 'r', but found '%me'")


def test_format_diagnostic_is_the_ack_line() -> None:
    d = Diagnostic(3, "bid 30 for opera", "expected a number of units after 'for'")
    assert format_diagnostic(d) == "line 3: 'bid 30 for opera': expected a number of units after 'for'"


def test_hint_example_that_parses_is_a_programming_error() -> None:
    helpless = SyntaxHelp(hints=(("anything", ["wait"]),))
    with pytest.raises(ValueError, match="parses"):
        parse_orders(PARSER, "move", build, helpless)


def test_without_help_terminal_names_are_used() -> None:
    result = parse_orders(PARSER, "move x", build)
    assert result.diagnostics[0].message == "expected NUMBER after 'move', but found 'x'"


def test_grammar_loaded_once_per_process() -> None:
    assert load_parser("venice") is load_parser("venice")


def test_parse_by_grammar_name() -> None:
    def any_order(tree: Tree, line: int, text: str) -> Order:
        return Order(line, text, "x", {}, text)

    result = parse_orders("venice", "borrow 5$\nnonsense", any_order)
    assert [o.line for o in result.orders] == [1]
    assert [d.line for d in result.diagnostics] == [2]


@pytest.mark.parametrize("ruleset, text", [
    ("venice", "bid " + "9" * 5000 + "$ for 1 of silk tax"),
    ("renaissance", "/MED *MEDICI\n*Florence .0101\nMLSiena !DAY" + "1" * 5000),
    ("renaissance", "/MED *MEDICI\n*Florence .0101\nT0102grain" + "5" * 5000),
])
def test_an_overlong_line_is_named_not_a_crash(ruleset: str, text: str) -> None:
    # A number of 5,000 digits made int() raise inside the grammar's builder, and the mail ended `error`.
    parsed = load_ruleset(ruleset).parse(text)
    last = text.count("\n") + 1
    [bad] = [d for d in parsed.diagnostics if d.line == last]
    assert "5,0" in bad.message and "characters; an order has at most 2,000" in bad.message
    assert len(bad.text) < 100
