"""Gold resolution with ast: imports (absolute, aliased, relative), re-exports, methods, super()."""
from __future__ import annotations

import textwrap

from hermes_eval.querysets.python.index import ModuleIndex, module_name
from hermes_eval.querysets.python.resolve import called_definitions, used_definitions
from hermes_eval.querysets.generators.completion import repo_indexes
from hermes_eval.core import Span


def _uses(ix, path, line):
    return {d.qualname: d.spans for d in used_definitions(ix, path, line, line)}


def test_module_names_follow_packages():
    paths = {"repo/src/pkg/__init__.py", "repo/src/pkg/sub/__init__.py", "repo/src/pkg/sub/mod.py",
             "repo/tools/run.py"}
    assert module_name("repo/src/pkg/sub/mod.py", paths) == ("pkg.sub.mod", False)
    assert module_name("repo/src/pkg/__init__.py", paths) == ("pkg", True)
    assert module_name("repo/tools/run.py", paths) == ("run", False)


def test_gold_through_imports_and_methods(shop_corpus):
    ix = repo_indexes(shop_corpus)["shop_repo"]
    cart = "shop/cart.py"
    # import shop.pricing as pr; pr.total_price(...)
    assert _uses(ix, cart, 23) == {"total_price": (Span("shop/pricing.py", 12, 14),)}
    # from shop.pricing import net_price
    assert _uses(ix, cart, 24) == {"net_price": (Span("shop/pricing.py", 5, 7),)}
    # from . import pricing; pricing.net_price(...)  (relative import of a submodule)
    assert _uses(ix, cart, 25) == {"net_price": (Span("shop/pricing.py", 5, 7),)}
    # self.add(...) in the class, Item(...) from .models: a class is its header and __init__
    assert _uses(ix, cart, 22) == {"Cart.add": (Span(cart, 12, 14),),
                                   "Item": (Span("shop/models.py", 1, 1), Span("shop/models.py", 2, 4))}
    # Class.method, and self.method() found on a repository base class
    assert _uses(ix, cart, 29) == {"Basket.describe": (Span("shop/models.py", 11, 12),)}
    assert _uses(ix, cart, 30) == {"Basket.describe": (Span("shop/models.py", 11, 12),)}
    # super().__init__() -> the base's __init__
    assert _uses(ix, cart, 9) == {"Basket.__init__": (Span("shop/models.py", 8, 9),)}
    # locals, attributes of instances, builtins: nothing
    assert _uses(ix, cart, 21) == {}
    assert _uses(ix, cart, 26) == {}


def test_reexport_through_package_init_and_local_shadowing():
    files = {
        "pkg/__init__.py": "from .core import compute\n",
        "pkg/core.py": "def compute(x):\n    return x * 2\n",
        "app.py": textwrap.dedent("""\
            import pkg
            from pkg import compute


            def main(compute_later=None):
                a = compute(1)
                b = pkg.compute(2)
                compute_later = 3
                return a + b + compute_later


            def shadow(compute):
                return compute(5)
            """),
    }
    ix = ModuleIndex(files.items())
    want = {"compute": (Span("pkg/core.py", 1, 2),)}
    assert _uses(ix, "app.py", 6) == want
    assert _uses(ix, "app.py", 7) == want
    assert _uses(ix, "app.py", 13) == {}  # the parameter shadows the import
    assert [d.qualname for d in called_definitions(ix, "app.py", 6, 7)] == ["compute"]
