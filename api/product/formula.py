"""Unit conversion formulas in one variable X (business-domain section 3: two per unit, max 100),
parsed by a small recursive-descent parser instead of eval: numbers, X, + - * /, ^ and brackets,
nothing else, so a stored formula can never run code.

    expression := term (('+' | '-') term)*
    term       := unary (('*' | '/') unary)*
    unary      := '-' unary | power          (-X^2 is -(X^2), as in mathematics)
    power      := atom ('^' unary)?
    atom       := number | 'X' | '(' expression ')'
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_LENGTH = 100
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?|\.\d+)|(.))")
# Values a pair of formulas must carry there and back unchanged to be saved.
ROUND_TRIP_POINTS = (-40.0, -1.5, 0.0, 1.0, 37.0, 100.0)


class FormulaError(ValueError):
    pass


def _tokens(text: str) -> list[str]:
    out = []
    for number, other in _TOKEN.findall(text.strip()):
        if number:
            out.append(number)
        elif other.upper() == "X":
            out.append("X")
        elif other in "+-*/^()":
            out.append(other)
        elif not other.isspace():
            raise FormulaError(f"unexpected character {other!r}")
    return out


Node = Callable[[float], float]


class _Parser:
    def __init__(self, tokens: list[str]):
        self.tokens, self.at = tokens, 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise FormulaError("the formula ends too early")
        self.at += 1
        return token

    def expression(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op, right, left = self.take(), self.term(), node
            node = (lambda a, b: lambda x: a(x) + b(x))(left, right) if op == "+" else _minus(left, right)
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "/"):
            op, right, left = self.take(), self.unary(), node
            node = _times(left, right) if op == "*" else _divided(left, right)
        return node

    def power(self) -> Node:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.unary()
            return lambda x: _checked(base(x) ** exponent(x))
        return base

    def unary(self) -> Node:
        if self.peek() == "-":
            self.take()
            inner = self.unary()
            return lambda x: -inner(x)
        return self.power()

    def atom(self) -> Node:
        token = self.take()
        if token == "X":
            return lambda x: x
        if token == "(":
            node = self.expression()
            if self.take() != ")":
                raise FormulaError("a bracket is not closed")
            return node
        if token[0].isdigit() or token[0] == ".":
            value = float(token)
            return lambda _x: value
        raise FormulaError(f"unexpected {token!r}")


def _minus(a: Node, b: Node) -> Node:
    return lambda x: a(x) - b(x)


def _times(a: Node, b: Node) -> Node:
    return lambda x: _checked(a(x) * b(x))


def _divided(a: Node, b: Node) -> Node:
    def run(x: float) -> float:
        divisor = b(x)
        if divisor == 0:
            raise FormulaError("division by zero")
        return a(x) / divisor

    return run


def _checked(value) -> float:
    if isinstance(value, complex) or abs(value) > 1e15:
        raise FormulaError("the value is out of range")
    return float(value)


def compile_formula(text: str) -> Node:
    """A function of X, or FormulaError. The formula must use X."""
    if not text or len(text) > MAX_LENGTH:
        raise FormulaError(f"1 to {MAX_LENGTH} characters")
    tokens = _tokens(text)
    if "X" not in tokens:
        raise FormulaError("the formula must use X")
    parser = _Parser(tokens)
    node = parser.expression()
    if parser.peek() is not None:
        raise FormulaError(f"unexpected {parser.peek()!r}")
    return node


def evaluate(text: str, x: float) -> float:
    try:
        return compile_formula(text)(x)
    except OverflowError as exc:
        raise FormulaError("the value is out of range") from exc


def round_trips(to_basic: str, from_basic: str) -> bool:
    """Whether converting to the basic unit and back gives each sample value again."""
    to_fn, from_fn = compile_formula(to_basic), compile_formula(from_basic)
    try:
        return all(abs(from_fn(to_fn(x)) - x) <= 1e-6 * max(1.0, abs(x)) for x in ROUND_TRIP_POINTS)
    except (FormulaError, OverflowError):
        return False
