/* Hash intermediaries (seed 000, Sec. 5).
 *
 * Member of rank i (in a group of m, whose ranks are hashed from `offset` on)
 * sends its id to H(i) and, unless it is the root, to H(parent(i)).  The
 * intermediary H(j) answers each child of j with j's id, and answers j with
 * the ids of its children once all have arrived.  Messages: 2m - 1 ids sent,
 * m - 1 parent answers, ceil((m - 1) / k) children answers.
 *
 * Choices the paper left open: H(g) = (A g + B) mod n, with A = 2654435761
 * (a prime larger than any n, hence prime to n) and B = 12345, so that each
 * process serves at most one rank and the intermediaries are spread over the
 * machine.  Intermediaries are message-driven: a process answers whenever it
 * looks at its mailbox, even while busy with its own part or after it.
 * Intermediary state (O(k) words) lives only between the first and last
 * message of its rank.
 */
#include "algorithms/spanning_trees/hash_exchange.h"
#include "algorithms/shapes/tree_shapes.h"

#include <string.h>

enum {
  TAG_ID_SELF = CS_TAG_ALGO_BASE + 8,  /* member i -> H(i): my id */
  TAG_ID_CHILD,                        /* member i -> H(parent(i)): my id */
  TAG_PARENT_INFO,                     /* H(p) -> child of p: id of p */
  TAG_CHILDREN_INFO,                   /* H(i) -> i: ids of i's children */
};

typedef struct id_note {   /* payload of TAG_ID_SELF / TAG_ID_CHILD */
  int64_t rank, m, offset;
  int32_t id, pad;
} id_note;

typedef struct intermediary {  /* what H(j) holds for rank j */
  int64_t j, m;
  int32_t self_id;              /* -1 until j's id arrived */
  int32_t expected, arrived;    /* children of j */
  int32_t k;
  int32_t child_id[];           /* by child position, -1 until arrived */
} intermediary;

static const int64_t HASH_A = 2654435761LL, HASH_B = 12345;

int hash_intermediary(int64_t global_rank, int n) { return (int)((HASH_A % n * (global_rank % n) + HASH_B) % n); }

static intermediary *intermediary_open(cs_proc *p, int k, const id_note *note, int64_t j)
{
  int expected = kary_nchildren(j, k, note->m);
  intermediary *s = cs_alloc(p, sizeof *s + sizeof(int32_t) * (size_t)expected);
  s->j = j;
  s->m = note->m;
  s->self_id = -1;
  s->expected = expected;
  s->arrived = 0;
  s->k = k;
  for (int i = 0; i < expected; i++)
    s->child_id[i] = -1;
  return s;
}

static void answer_child(cs_proc *p, const intermediary *s, int32_t child)
{
  cs_send(p, child, TAG_PARENT_INFO, &s->self_id, sizeof s->self_id);
}

/* Returns 1 when the intermediary has nothing left to do. */
static int intermediary_take(cs_proc *p, intermediary *s, const cs_msg *m)
{
  const id_note *note = m->data;
  if (m->tag == TAG_ID_SELF) {
    s->self_id = note->id;
    for (int i = 0; i < s->expected; i++)
      if (s->child_id[i] >= 0)
        answer_child(p, s, s->child_id[i]);
  } else {
    int slot = (int)(note->rank - kary_first_child(s->j, s->k));
    s->child_id[slot] = note->id;
    s->arrived++;
    if (s->self_id >= 0)
      answer_child(p, s, note->id);
  }
  if (s->self_id < 0 || s->arrived < s->expected)
    return 0;
  if (s->expected > 0)
    cs_send(p, s->self_id, TAG_CHILDREN_INFO, s->child_id, sizeof(int32_t) * (size_t)s->expected);
  return 1;
}

/* Handler state: the process serves at most one rank (H is a bijection). */
typedef struct handler_state {
  int k;
  intermediary *serving;
} handler_state;

static void on_id_message(cs_proc *p, cs_msg *m, void *user)
{
  handler_state *h = user;
  const id_note *note = m->data;
  int64_t j = m->tag == TAG_ID_SELF ? note->rank : kary_parent(note->rank, h->k);
  if (h->serving == NULL)
    h->serving = intermediary_open(p, h->k, note, j);
  if (intermediary_take(p, h->serving, m)) {
    cs_free(p, h->serving);
    h->serving = NULL;
  }
  cs_msg_free(p, m);
}

void hash_exchange_install(cs_proc *p, int k)
{
  handler_state *h = cs_alloc(p, sizeof *h);
  h->k = k;
  h->serving = NULL;
  cs_set_handler_owned(p, TAG_ID_SELF, TAG_ID_CHILD, on_id_message, h);
}

void hash_exchange_discover(cs_proc *p, int k, int64_t rank, int64_t m, int64_t offset, int color,
                            cs_tree_node *out)
{
  int n = cs_size(p);
  id_note note = {rank, m, offset, cs_rank(p), 0};
  cs_send(p, hash_intermediary(offset + rank, n), TAG_ID_SELF, &note, sizeof note);
  int64_t parent = kary_parent(rank, k);
  if (parent >= 0)
    cs_send(p, hash_intermediary(offset + parent, n), TAG_ID_CHILD, &note, sizeof note);

  out->member = 1;
  out->color = color;
  out->parent = -1;
  out->nchildren = kary_nchildren(rank, k, m);
  out->children = cs_alloc(p, sizeof(int) * (size_t)out->nchildren);
  if (parent >= 0) {
    cs_msg *msg = cs_recv(p, CS_ANY, TAG_PARENT_INFO);
    out->parent = *(int32_t *)msg->data;
    cs_msg_free(p, msg);
  }
  if (out->nchildren > 0) {
    cs_msg *msg = cs_recv(p, CS_ANY, TAG_CHILDREN_INFO);
    memcpy(out->children, msg->data, sizeof(int32_t) * (size_t)out->nchildren);
    cs_msg_free(p, msg);
  }
}
