// Package queue implements a bounded FIFO queue (probe input).
package queue

import "errors"

// ErrFull is returned by Push on a full queue.
var ErrFull = errors.New("queue full")

// Queue holds at most Cap items.
type Queue struct {
	items []string
	Cap   int
}

// Push appends an item, or returns ErrFull.
func (q *Queue) Push(item string) error {
	if len(q.items) >= q.Cap {
		return ErrFull
	}
	q.items = append(q.items, item)
	return nil
}

// Pop removes and returns the oldest item.
func (q *Queue) Pop() (string, bool) {
	if len(q.items) == 0 {
		return "", false
	}
	head := q.items[0]
	q.items = q.items[1:]
	return head, true
}
