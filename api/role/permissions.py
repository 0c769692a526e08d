"""The permission-key tree of business-domain section 6 that roles grant from.

Routes carry their permission key; action controls check `route.action` with the generic action
names of console-shell section 6. A role stores the keys checked in the tree: a fully checked
route is stored as the route key (all its actions), a partly checked one as its action keys.
Operator-area keys are not in the tree: roles cannot make a member platform staff.
"""

from __future__ import annotations

CRUD = ("query", "add", "edit", "delete")

# (key, actions, children)
TREE: tuple[tuple[str, tuple[str, ...], tuple], ...] = (
    ("home", (), ()),
    ("message.list", ("query", "edit", "delete"), ()),
    ("device.list", (*CRUD, "enable", "disable", "export", "share", "transfer"), ()),
    ("storage.list", CRUD, ()),
    ("freezer.list", CRUD, ()),
    ("waybill", (), (("waybill.list", (*CRUD, "export"), ()), ("waybill.geofence", CRUD, ()))),
    ("asset", (), (("asset.list", (*CRUD, "enable", "disable"), ()),)),
    ("project.list", CRUD, ()),
    ("organization.list", CRUD, (("organization.list.userList", (), ()),)),
    ("fda", (), ()),
    (
        "consumer",
        (),
        (
            ("consumer.info", (), ()),
            ("consumer.list", CRUD, ()),
            ("consumer.role", CRUD, ()),
            ("consumer.recharge", (), ()),
            ("consumer.download", (), ()),
            ("consumer.sharer", CRUD, ()),
        ),
    ),
    ("operation.log", ("query",), ()),
)

# Every member may open the home page and its own account information.
MEMBER_BASELINE = ("home", "consumer.info")


def _walk(nodes) -> list[dict]:
    out = []
    for key, actions, children in nodes:
        kids = [{"key": f"{key}.{action}", "action": action, "children": []} for action in actions]
        out.append({"key": key, "action": None, "children": kids + _walk(children)})
    return out


def tree() -> list[dict]:
    """The tree as the role editor shows it: {key, action, children}."""
    return _walk(TREE)


def all_keys() -> frozenset[str]:
    keys: set[str] = set()

    def visit(nodes):
        for node in nodes:
            keys.add(node["key"])
            visit(node["children"])

    visit(tree())
    return frozenset(keys)


def key_passes(granted: set[str] | frozenset[str], key: str) -> bool:
    """Spec section 6: a check passes if the key (with optional sub-key) is granted: the key itself,
    a parent of it (`device.list` grants `device.list.edit`), or a sub-key of it (`device.list.query`
    opens the route `device.list`, not its other actions)."""
    parts = key.split(".")
    if any(".".join(parts[:i]) in granted for i in range(len(parts), 0, -1)):
        return True
    prefix = key + "."
    return any(g.startswith(prefix) for g in granted)
