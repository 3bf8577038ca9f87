/* instr — source-to-source instrumentation with libclang. Each function of a
 * C file is rewritten so that, built with the project's own command and run
 * with CULPRIT_TRACE set, it writes the trace core/semantic/trace.h reads: statement
 * instances, branch outcomes, reads and writes of scalars with their
 * addresses, calls, parameters, returns and output calls. Only insertions
 * and same-line replacements are made, so every line keeps its number.
 * Alongside, the static facts the formula needs go to a metadata text: one
 * record a line, tab-separated (see docs/ARCHITECTURE.md, "Trace metadata"):
 *
 *   F file path                 S sid file line fid start end kind text
 *   N fid file line name type text                P pid fid index type name
 *   R rid sid type name         W wid sid type name tree lvalue
 *   B bid sid kind tree then else jumps   (then/else: names the arm may assign, comma-separated, "-" none;
 *                                   jumps: "t", "e", "te" when that arm of an if may leave it, "-" none)
 *   T tid sid fid type tree     C cid sid callee type nargs output
 *   A cid index tree            X rid kind tree   (crash checks: "nonnull" or "bounds:N")
 *   Y id char | Y id enum NAME=V,...   (display only: a W site's or an N site's return
 *                                   value is a plain char, or an enum with these constants)
 *
 * Trees are s-expressions over types like i32 u8 b8 p64 f64 v0 s0:
 *   (k V T) constant   (r RID T) read   (c CID T) call result   (w WID T) assigned value
 *   (u OP T a) (b OP T a b) (q T c a b) (x T a) conversion   (o T) opaque */
#ifndef CULPRIT_INSTR_H
#define CULPRIT_INSTR_H

#include "core/util.h"

struct instr_stats {
	unsigned stmts, reads, writes, branches, calls, functions, opaque;
};

/* Instrument the file at path (file index fidx, shown as rel; its text is
 * text/len, or read from path when text is NULL) with the compiler
 * arguments args. out receives the new text (without the runtime
 * include, which the caller puts first; the feature-test macro definitions
 * the file makes before its includes or in its own headers are put ahead
 * of what the caller put), meta the records; *next_id is the next free id
 * and is advanced. 0 or <0 with e set. */
int instr_file(const char *path, const char *rel, const char *text, size_t len, int fidx, const char *const *args,
	       int nargs, unsigned *next_id, struct buf *out, struct buf *meta, struct instr_stats *st, struct cerr *e);

/* The runtime header's text (core/semantic/trace_rt.h). */
const char *instr_runtime(void);

#endif
