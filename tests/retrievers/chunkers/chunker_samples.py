"""Source snippets in every language the chunkers handle, and chunkers built from conf/chunker
(imported by the tests in this folder)."""
from __future__ import annotations

from pathlib import Path

from omegaconf import OmegaConf

ROOT = Path(__file__).resolve().parents[3]

GO = '''package geometry

import (
\t"fmt"
\t"math"
)

// Point is a location on the plane.
type Point struct {
\tX, Y float64
}

// Dist returns the distance to q.
func (p *Point) Dist(q Point) float64 {
\treturn math.Hypot(q.X-p.X, q.Y-p.Y)
}

// Add adds two numbers.
func Add(a, b int) int {
\treturn a + b
}

const Version = "1.0"

func main() {
\tfmt.Println(Add(1, 2))
}
'''

RUST = '''use std::fmt;

/// A point on the plane.
#[derive(Debug, Clone)]
pub struct Point {
    x: f64,
    y: f64,
}

impl Point {
    /// The origin.
    pub fn origin() -> Self {
        Point { x: 0.0, y: 0.0 }
    }

    pub fn dist(&self, other: &Point) -> f64 {
        ((other.x - self.x).powi(2) + (other.y - self.y).powi(2)).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub trait Shape {
    fn area(&self) -> f64;
}
'''

JAVASCRIPT = '''import { load } from "./config.js";

/**
 * Adds two numbers.
 */
export function add(a, b) {
  return a + b;
}

const double = (x) => x * 2;

export default class Counter {
  constructor(start) {
    this.value = start;
  }

  increment() {
    this.value += 1;
    return this.value;
  }
}

module.exports.reset = function (counter) {
  counter.value = 0;
};
'''

AMD = '''define([
    'base/js/namespace',
    'jquery'
], function (Jupyter, $) {
    "use strict";

    // toggle the toolbar
    function toggle_toolbar(show) {
        $('#maintoolbar').toggle(show);
        return show;
    }

    var load_extension = function () {
        Jupyter.toolbar.add_buttons_group([{
            label: 'toggle',
            icon: 'fa-eye',
            callback: toggle_toolbar
        }]);
    };

    return {
        load_ipython_extension: load_extension
    };
});
'''

TYPESCRIPT = '''import { Injectable } from "@angular/core";

export interface User {
  id: number;
  name: string;
}

export type Id = number | string;

export enum Role {
  Admin,
  Guest,
}

@Injectable()
export class UserService {
  private users: User[] = [];

  add(user: User): void {
    this.users.push(user);
  }

  find(id: number): User | undefined {
    return this.users.find((u) => u.id === id);
  }
}

export function greet(user: User): string {
  return `hello ${user.name}`;
}
'''

JAVA = '''package org.example.shapes;

import java.util.List;

/** A circle. */
public class Circle implements Shape {
    private final double radius;

    public Circle(double radius) {
        this.radius = radius;
    }

    @Override
    public double area() {
        return Math.PI * radius * radius;
    }

    public static double total(List<Shape> shapes) {
        double sum = 0;
        for (Shape s : shapes) {
            sum += s.area();
        }
        return sum;
    }
}
'''

CSHARP = '''using System;
using System.Collections.Generic;

namespace Shapes
{
    /// <summary>A square.</summary>
    public class Square : IShape
    {
        public double Side { get; }

        public Square(double side)
        {
            Side = side;
        }

        public double Area()
        {
            return Side * Side;
        }
    }
}
'''

PYTHON = '''"""A small module."""
import os

CONSTANT = 3


@decorator
def top(a, b):
    """Add."""
    return a + b


async def fetch(url):
    return await get(url)


class Thing:
    """A thing."""

    def __init__(self, x):
        self.x = x

    def double(self):
        return self.x * 2


if __name__ == "__main__":
    print(top(1, 2))
'''

MARKDOWN = '''Intro text before any heading.

# Guide

Some words about the guide.

## Install

Use pip:

```bash
# this is a shell comment, not a heading
pip install thing
```

## Usage

First paragraph of usage.

Second paragraph of usage.

Setext section
--------------

Body under a setext heading.
'''

C = '''#include <stdlib.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* A growable list of ints. */
typedef struct {
    int *items;
    size_t len;
} list;

struct node {
    struct node *next;
    int value;
};

#ifdef LIST_DEBUG
/* Print every item. */
static void list_dump(const list *l) {
    for (size_t i = 0; i < l->len; i++) {
        printf("%d\\n", l->items[i]);
    }
}
#endif

int list_max(const list *l) {
    int best = l->items[0];
    for (size_t i = 1; i < l->len; i++) {
        best = MAX(best, l->items[i]);
    }
    return best;
}
'''

SNIPPETS: dict[str, tuple[str, str]] = {
    "go": ("geo/point.go", GO), "rust": ("src/point.rs", RUST), "javascript": ("web/counter.js", JAVASCRIPT),
    "typescript": ("web/user.ts", TYPESCRIPT), "java": ("src/Circle.java", JAVA),
    "csharp": ("src/Square.cs", CSHARP), "python": ("pkg/mod.py", PYTHON), "markdown": ("docs/guide.md", MARKDOWN),
    "c": ("src/list.c", C),
}


# real files nobody here wrote, one per language (provenance and licences: polyglot/README.md, and
# tests/slices/langs-java-c/PROVENANCE.md for Java and C)
POLYGLOT_DIR = Path(__file__).resolve().parent / "polyglot"
JAVA_C_DIR = ROOT / "tests" / "slices" / "langs-java-c"
REAL_FILES: dict[str, Path] = {
    **{lang: POLYGLOT_DIR / name for lang, name in (("go", "mux_regexp.go"), ("rust", "anyhow_context.rs"),
                                                    ("javascript", "commander_option.js"),
                                                    ("typescript", "mobx_reaction.ts"), ("markdown", "ws_README.md"))},
    "java": JAVA_C_DIR / "ApplicationMapping.java", "c": JAVA_C_DIR / "slowlog.c"}
# every real Java and C file of that slice -> its language
JAVA_C_FILES: dict[str, str] = {"ApplicationMapping.java": "java", "FrameType.java": "java",
                                "ClusterDeployer.java": "java", "slowlog.c": "c", "sds.h": "c"}


def real_file(language: str) -> tuple[str, str]:
    """(path, text) of the committed real file in ``language``."""
    path = REAL_FILES[language]
    return f"{path.parent.name}/{path.name}", path.read_text(encoding="utf-8")


def java_c_file(name: str) -> tuple[str, str, str]:
    """(path, text, language) of a real Java or C file of tests/slices/langs-java-c."""
    return f"langs-java-c/{name}", (JAVA_C_DIR / name).read_text(encoding="utf-8"), JAVA_C_FILES[name]


def from_config(name: str, **overrides):
    """The chunker that conf/chunker/NAME.yaml builds, with keys overridden."""
    from hermes_eval.config.parts import instantiate_part

    cfg = OmegaConf.load(ROOT / "conf" / "chunker" / f"{name}.yaml")
    for key, value in overrides.items():
        OmegaConf.update(cfg, key, value)
    return instantiate_part(cfg)


CONFIGS = sorted(p.stem for p in (ROOT / "conf" / "chunker").glob("*.yaml"))
# the chunkers that promise to cover every non-blank line (not those that pick their documents:
# ``selective``, retrievers/chunkers/base.py)
COVERING = [name for name in CONFIGS if not from_config(name).selective]


def lines_of(text: str) -> list[str]:
    """The file's lines as the contract counts them: split on newline only."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def check_invariants(chunker, path: str, text: str, language: str) -> list:
    """Assert the chunker contract of retrievers/chunkers/base.py on one file; return the chunks."""
    chunks = chunker.chunk(path, text, language)
    lines = lines_of(text)
    covered: set[int] = set()
    for c in chunks:
        assert c.path == path and c.language == language
        assert 1 <= c.start <= c.end <= len(lines), (c.id, len(lines))
        assert c.text == "\n".join(lines[c.start - 1:c.end]), c.id
        assert c.text.strip(), f"whitespace-only chunk {c.id}"
        assert c.id == f"{path}:{c.start}-{c.end}"
        covered.update(range(c.start, c.end + 1))
    missing = [n for n, line in enumerate(lines, start=1) if line.strip() and n not in covered]
    assert not missing or chunker.selective, f"non-blank lines in no chunk: {missing[:10]}"
    again = chunker.chunk(path, text, language)
    assert [(c.id, c.text, c.symbol, c.meta) for c in again] == [(c.id, c.text, c.symbol, c.meta) for c in chunks]
    return chunks
