/* handoff.h - blocks of work passed from one thread to one consumer
 * thread of their own and consumed in the order they were passed, so that
 * the work's result is the one a single thread would make. The producer
 * fills the current block (handoff_block), passes it (handoff_pass) and
 * gets the next one to fill: a new one while fewer than `max_blocks`
 * exist, else the one the consumer freed last (the warmest in cache); so
 * memory stays bounded and nothing is allocated per item. The consumer
 * thread starts with the first pass (work that never fills a block never
 * starts one) and runs at SCHED_BATCH where there is one, so that being
 * woken for a block never preempts the producer on its processor.
 * handoff_drain() waits until every block passed so far is consumed and
 * ends the thread; the block being filled stays the producer's (consume
 * it there, or pass it later: the thread starts again).
 *
 * Ownership: handoff_new() returns a handoff freed by handoff_free(),
 * which drains first; the blocks are its own (zero-filled when new).
 * Between a pass and the end of the next drain, whatever `consume` touches
 * belongs to the consumer thread.
 * Not for: several consumers, or work whose order does not matter (GLib's
 * GThreadPool).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef void (*handoff_consume)(void *block, void *user);

typedef struct handoff handoff;

/* `name` (static) names the consumer thread; `consume` runs on it for
 * every block passed, with `user`. */
handoff *handoff_new(const char *name, size_t block_size, int max_blocks, handoff_consume consume,
                     void *user);

/* The block being filled. */
void *handoff_block(const handoff *h);

/* Passes the block being filled to the consumer; returns the next one. */
void *handoff_pass(handoff *h);

/* Returns once every block passed so far is consumed; the thread ends. */
void handoff_drain(handoff *h);

void handoff_free(handoff *h);

G_END_DECLS
