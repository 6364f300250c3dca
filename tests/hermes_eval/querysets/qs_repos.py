"""Repositories the query-set tests write: a small real-looking Python shop (SHOP) and the real
polyglot fixtures (POLYGLOT), with the helpers that write and read them.

Line numbers below are relied on by the tests (hand-checked): keep the texts as they are.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

SHOP = {
    "shop/__init__.py": '''\
        """A toy shop."""
        from .pricing import total_price
        ''',
    # 1 docstring, 2 TAX, 5-7 net_price, 10-11 comment, 12-14 total_price
    "shop/pricing.py": '''\
        """Pricing helpers."""
        TAX = 0.2


        def net_price(amount, discount):
            """Subtract the discount from the amount, never below zero."""
            return max(amount - discount, 0.0)


        # Add tax to the discounted amount
        # and round it to cents.
        def total_price(amount, discount=0.0):
            net = net_price(amount, discount)
            return round(net * (1 + TAX), 2)
        ''',
    # 1-4 Item (header 1, __init__ 2-4), 7-12 Basket (header 7, __init__ 8-9, describe 11-12)
    "shop/models.py": '''\
        class Item:
            def __init__(self, name, price):
                self.name = name
                self.price = price


        class Basket:
            def __init__(self):
                self.created = True

            def describe(self):
                return "basket of things"
        ''',
    # imports 1-4; Cart 7-35: __init__ 8-10, add 12-14, count 16-17, checkout 19-32 (docstring 20),
    # finish 34-35
    "shop/cart.py": '''\
        import shop.pricing as pr
        from shop.pricing import net_price
        from . import pricing
        from .models import Item, Basket


        class Cart(Basket):
            def __init__(self):
                super().__init__()
                self.items = []

            def add(self, item):
                self.items.append(item)
                return self.count()

            def count(self):
                return len(self.items)

            def checkout(self, discount):
                """Total of the cart after discount and tax, with a handling fee."""
                subtotal = sum(i.price for i in self.items)
                self.add(Item("handling fee", 1.0))
                value = pr.total_price(subtotal, discount)
                low = net_price(subtotal, discount)
                also = pricing.net_price(subtotal, 0)
                items = [item.name for item in self.items]
                for item in items:
                    print(item)
                label = Basket.describe(self)
                shown = self.describe()
                later = self.finish()
                return label + shown + str(value + low + also) + later

            def finish(self):
                return "done"
        ''',
}


def write_repo(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


# Real Go, Rust, JS, TS and markdown files, one repository per folder (provenance and licences
# in POLYGLOT_FIXTURES.md); line numbers are relied on by the polyglot tests.
POLYGLOT = Path(__file__).parent / "polyglot_fixtures"
