"""Gold through instances: ``Cls(...).m()``, local and module-level variables, annotated parameters;
ambiguous variables are not guessed."""
from __future__ import annotations

import pytest
from qs_repos import write_repo

from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.python.resolve import called_definitions, used_definitions
from hermes_eval.querysets.generators.completion import repo_indexes
from hermes_eval.core import Span

BASE, CHARTS, APP = "viz/base.py", "viz/charts.py", "app.py"
RADAR = {
    "viz/__init__.py": "from .charts import ComplexRadar\n",
    # Chart 1-6: header 1, __init__ 2-3, plot 5-6
    BASE: '''\
        class Chart:
            def __init__(self, title):
                self.title = title

            def plot(self):
                return self.title
        ''',
    # ComplexRadar 4-10 (header 4, __init__ 5-7, fill 9-10); Factory 13-15 (header 13,
    # get_module 14-15); Table 18-20 (header 18, plot 19-20)
    CHARTS: '''\
        from .base import Chart


        class ComplexRadar(Chart):
            def __init__(self, title, axes):
                super().__init__(title)
                self.axes = axes

            def fill(self, values):
                return list(zip(self.axes, values))


        class Factory:
            def get_module(self):
                return "module"


        class Table:
            def plot(self):
                return "table"
        ''',
    APP: '''\
        from typing import Optional

        import viz.charts as vc
        from viz import ComplexRadar
        from viz.charts import Factory, Table

        radar = ComplexRadar("module level", ["a"])


        def build():
            Factory().get_module()
            local = vc.ComplexRadar("t", ["x"])
            local.fill([1])
            return vc.Factory(
            ).get_module()


        def show(r: ComplexRadar, s: "ComplexRadar", o: Optional[ComplexRadar], u: ComplexRadar | None = None):
            r.plot()
            s.fill([2])
            o.plot()
            u.fill([3])


        def uses_module_level():
            radar.plot()


        def ambiguous(flag, r):
            chart = ComplexRadar("a", [])
            if flag:
                chart = Table()
            chart.plot()
            for item in [Table()]:
                item.plot()
            r.plot()
            a, b = Table(), Table()
            a.plot()


        def compatible():
            x = None
            if x is None:
                x = Table()
            x.plot()
            y: "Optional[Table]" = Table()
            y = Table()
            y.plot()
            radar = Table()
            radar.plot()


        def closures():
            outer = Table()

            def inner():
                outer.plot()
                shadow = Factory()
                return shadow

            shadow = ComplexRadar("s", [])
            shadow.fill([4])
            return inner


        from typing import List, Union  # noqa: E402


        def unions(a: "typing.Optional[Table]", b: Union[ComplexRadar, Table], c: List[Table], d: Union[Table, None]):
            a.plot()
            b.plot()
            c.plot()
            d.plot()
        ''',
}

PLOT = {"Chart.plot": (Span(BASE, 5, 6),)}
FILL = {"ComplexRadar.fill": (Span(CHARTS, 9, 10),)}
TABLE_PLOT = {"Table.plot": (Span(CHARTS, 19, 20),)}
FACTORY = {"Factory": (Span(CHARTS, 13, 13),), "Factory.get_module": (Span(CHARTS, 14, 15),)}


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = write_repo(tmp_path_factory.mktemp("radar") / "radar_repo", RADAR)
    return repo_indexes(load_corpus([str(root)], name="radar", cache_dir=root.parent / "cache"))["radar_repo"]


def _uses(ix, start, end=None):
    return {d.qualname: d.spans for d in used_definitions(ix, APP, start, end or start)}


def test_method_on_a_freshly_constructed_object(index):
    assert _uses(index, 11) == FACTORY
    assert _uses(index, 14, 15) == FACTORY  # vc.Factory(\n).get_module() across two lines
    assert [d.qualname for d in called_definitions(index, APP, 11, 11)] == ["Factory", "Factory.get_module"]
    # a constructor alone gives the class only
    assert _uses(index, 7) == {"ComplexRadar": (Span(CHARTS, 4, 4), Span(CHARTS, 5, 7))}


def test_method_through_a_local_assignment(index):
    assert _uses(index, 13) == FILL  # local = vc.ComplexRadar(...); local.fill(...)
    assert [d.qualname for d in called_definitions(index, APP, 13, 13)] == ["ComplexRadar.fill"]


def test_method_through_a_module_level_assignment(index):
    assert _uses(index, 26) == PLOT  # radar = ComplexRadar(...) at module level; plot is on the base


def test_method_through_annotated_parameters(index):
    assert _uses(index, 19) == PLOT  # r: ComplexRadar (base searched)
    assert _uses(index, 20) == FILL  # s: "ComplexRadar"
    assert _uses(index, 21) == PLOT  # o: Optional[ComplexRadar]
    assert _uses(index, 22) == FILL  # u: ComplexRadar | None


def test_annotations_name_one_class_or_nothing(index):
    assert _uses(index, 70) == TABLE_PLOT  # "typing.Optional[Table]"
    assert _uses(index, 71) == {}  # Union of two classes
    assert _uses(index, 72) == {}  # a list of tables is not a table
    assert _uses(index, 73) == TABLE_PLOT  # Union[Table, None]


def test_ambiguous_variables_are_not_guessed(index):
    assert _uses(index, 33) == {}  # chart is a ComplexRadar or a Table
    assert _uses(index, 35) == {}  # loop target
    assert _uses(index, 36) == {}  # unannotated parameter
    assert _uses(index, 38) == {}  # tuple unpacking


def test_none_and_repeated_bindings_of_one_class(index):
    assert _uses(index, 45) == TABLE_PLOT  # x = None, then x = Table()
    assert _uses(index, 48) == TABLE_PLOT  # y: "Optional[Table]" = Table(); y = Table()
    assert _uses(index, 50) == TABLE_PLOT  # the local radar shadows the module-level one


def test_closures_see_the_enclosing_binding_only(index):
    assert _uses(index, 57) == TABLE_PLOT  # outer, bound in the enclosing function
    assert _uses(index, 62) == FILL  # inner's own shadow = Factory() is another variable
