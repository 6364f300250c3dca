//! A growable stack with a peek operation (probe input).

/// A last-in first-out stack.
pub struct Stack<T> {
    items: Vec<T>,
}

impl<T: Clone> Stack<T> {
    /// An empty stack.
    pub fn new() -> Self {
        Stack { items: Vec::new() }
    }

    /// Push an item on top.
    pub fn push(&mut self, item: T) {
        self.items.push(item);
    }

    /// The top item, if any, without removing it.
    pub fn peek(&self) -> Option<T> {
        let last = self.items.last();
        last.cloned()
    }
}

/// Sum of a slice of numbers.
pub fn sum(values: &[i64]) -> i64 {
    let mut total = 0;
    for v in values {
        total += v;
    }
    total
}
