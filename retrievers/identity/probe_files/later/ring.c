/* Probe input: a fixed-size ring buffer of integers. */
#include <stdlib.h>
#include <string.h>

#define RING_CAPACITY 8
#define RING_NEXT(i) (((i) + 1) % RING_CAPACITY)

/* A queue of integers that overwrites nothing: a full ring refuses a push. */
typedef struct ring {
    int items[RING_CAPACITY];
    size_t head;
    size_t count;
} ring;

enum ring_status { RING_OK, RING_FULL, RING_EMPTY };

/* Make an empty ring on the heap; NULL when memory is short. */
ring *ring_new(void) {
    ring *r = malloc(sizeof(*r));
    if (r == NULL) return NULL;
    memset(r, 0, sizeof(*r));
    return r;
}

// Whether no item can be pushed on the ring any more.
static int ring_full(const ring *r) {
    return r->count == RING_CAPACITY;
}

/* Push item on a full queue: refused with RING_FULL, otherwise stored
 * after the last item.
 *
 * The ring keeps its head. */
enum ring_status ring_push(ring *r, int item) {
    if (ring_full(r)) {
        return RING_FULL;
    }
    size_t tail = (r->head + r->count) % RING_CAPACITY;
    r->items[tail] = item;
    r->count++;
    return RING_OK;
}

#ifdef RING_DEBUG
/* Pop the oldest item of the ring into out. */
enum ring_status ring_pop(ring *r, int *out) {
    if (r->count == 0) {
        return RING_EMPTY;
    }
    *out = r->items[r->head];
    r->head = RING_NEXT(r->head);
    r->count--;
    return RING_OK;
}
#endif
