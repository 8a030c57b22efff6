// Heap/strings: a chained hash map from words to counts (FNV-1a hashing, heap-allocated keys).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#define BUCKETS 13

struct entry { char *key; int count; struct entry *next; };
struct map { struct entry *buckets[BUCKETS]; int size; };

static unsigned fnv1a(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static void add(struct map *m, const char *word) {
    unsigned b = fnv1a(word) % BUCKETS;
    for (struct entry *e = m->buckets[b]; e; e = e->next) {
        if (strcmp(e->key, word) == 0) {
            e->count++;
            return;
        }
    }
    struct entry *e = malloc(sizeof *e);
    e->key = malloc(strlen(word) + 1);
    strcpy(e->key, word);
    e->count = 1;
    e->next = m->buckets[b];
    m->buckets[b] = e;
    m->size++;
}

int main(void) {
    const char *text = "The shadow of the old version and the shadow of the new version meet; "
                       "where THE versions differ, the shadow splits.";
    struct map m;
    memset(&m, 0, sizeof m);
    char word[32];
    int len = 0;
    for (const char *p = text;; p++) {
        if (isalpha((unsigned char)*p)) {
            if (len < 31)
                word[len++] = (char)tolower((unsigned char)*p);
        } else {
            if (len) {
                word[len] = '\0';
                add(&m, word);
                len = 0;
            }
            if (!*p)
                break;
        }
    }
    printf("distinct=%d hash(shadow)=%u\n", m.size, fnv1a("shadow"));
    int best = 0;
    const char *best_word = "";
    for (int b = 0; b < BUCKETS; b++) {
        int chain = 0;
        for (struct entry *e = m.buckets[b]; e; e = e->next) {
            chain++;
            if (e->count > best || (e->count == best && strcmp(e->key, best_word) < 0)) {
                best = e->count;
                best_word = e->key;
            }
        }
        printf("bucket %2d: %d\n", b, chain);
    }
    printf("most frequent: %s x%d\n", best_word, best);
    int freed = 0;
    for (int b = 0; b < BUCKETS; b++) {
        struct entry *e = m.buckets[b];
        while (e) {
            struct entry *next = e->next;
            free(e->key);
            free(e);
            e = next;
            freed++;
        }
    }
    return freed;
}
