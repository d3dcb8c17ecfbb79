#!/usr/bin/env python3
"""gen-wrappers.py - libmapsim-trace's wrappers from calls.tbl.

Usage: gen-wrappers.py calls.tbl regions.h hooks.h wrap-c.c wrap-fortran.c

Writes, from the one table of wrapped MPI functions:
  regions.h       TR_REGIONS(X), the region of every function {name, role}
  hooks.h         the prototypes of the hooks each family needs (tracer.h)
  wrap-c.c        MPI_NAME(...): PMPI_NAME between the family's hooks
  wrap-fortran.c  mpi_name, mpi_name_, mpi_name__, MPI_NAME (mpif.h and
                  `use mpi`) and the library's mpi_f08 symbol: the Fortran
                  arguments turned into C ones (handles by MPI_*_f2c, the
                  Fortran MPI_IN_PLACE/MPI_BOTTOM/MPI_STATUS(ES)_IGNORE
                  sentinels by their addresses), the library's own Fortran
                  function (the next definition of the symbol) between the
                  same hooks.
A family's hooks see the C arguments only; whether they came from C or
Fortran is the wrappers' business (fortran.c holds their helpers).
"""
import sys

# kind -> C parameter type
C_TYPE = {
    'argc': 'int *', 'argv': 'char ***', 'int': 'int', 'int_out': 'int *',
    'flag': 'int *', 'index': 'int *', 'indices': 'int *', 'cbuf': 'const void *',
    'vbuf': 'void *', 'type': 'MPI_Datatype', 'types': 'const MPI_Datatype *',
    'op': 'MPI_Op', 'comm': 'MPI_Comm', 'comm_out': 'MPI_Comm *', 'comm_inout': 'MPI_Comm *',
    'group': 'MPI_Group', 'info': 'MPI_Info', 'req_out': 'MPI_Request *',
    'req': 'MPI_Request *', 'reqs': 'MPI_Request *', 'status': 'MPI_Status *',
    'statuses': 'MPI_Status *', 'ints': 'const int *', 'str': 'const char *',
}
# kind -> how a Fortran wrapper makes the C form of an argument: its
# declaration (before the call) and its update (after it), with {c} the C
# name, {f} the Fortran argument, {n} the parameter, {count} the length of
# an array, {buf} the choice buffer before it, {slot} 0 for a send side.
F_FORM = {
    'argc': ('int *{c} = NULL;', None),
    'argv': ('char ***{c} = NULL;', None),
    'int': ('int {c} = (int)*{f};', None),
    'int_out': ('int {c}_v = 0, *{c} = &{c}_v;', '{c}_v = (int)*{f};'),
    'flag': ('int {c}_v = 0, *{c} = &{c}_v;', '{c}_v = *{f} != 0;'),
    'index': ('int {c}_v = MPI_UNDEFINED, *{c} = &{c}_v;', '{c}_v = tr_f_index(*{f});'),
    'indices': ('int *{c} = NULL;', '{c} = tr_f_indices({f}, c_outcount_v);'),
    'cbuf': ('void *{c} = tr_f_buffer({f}, f08_);', None),
    'vbuf': ('void *{c} = tr_f_buffer({f}, f08_);', None),
    'ints': ('const int *{c} = (const int *){f};', None),
    'types': ('const MPI_Datatype *{c} = tr_f_types({f}, c_comm, {buf}, {slot});', None),
    'type': ('MPI_Datatype {c} = MPI_Type_f2c(*{f});', None),
    'op': ('MPI_Op {c} = MPI_Op_f2c(*{f});', None),
    'comm': ('MPI_Comm {c} = MPI_Comm_f2c(*{f});', None),
    'group': ('MPI_Group {c} = MPI_Group_f2c(*{f});', None),
    'info': ('MPI_Info {c} = MPI_Info_f2c(*{f});', None),
    'comm_out': ('MPI_Comm {c}_v = MPI_COMM_NULL, *{c} = &{c}_v;', '{c}_v = MPI_Comm_f2c(*{f});'),
    'comm_inout': ('MPI_Comm {c}_v = MPI_Comm_f2c(*{f}), *{c} = &{c}_v;',
                   '{c}_v = MPI_Comm_f2c(*{f});'),
    'req_out': ('MPI_Request {c}_v = MPI_REQUEST_NULL, *{c} = &{c}_v;',
                '{c}_v = MPI_Request_f2c(*{f});'),
    'req': ('MPI_Request {c}_v = MPI_Request_f2c(*{f}), *{c} = &{c}_v;',
            '{c}_v = MPI_Request_f2c(*{f});'),
    'reqs': ('MPI_Request *{c} = tr_f_requests({f}, {count});', None),
    'status': ('MPI_Fint *s_{n} = tr_f_status_arg({f}, f08_);\nMPI_Status {c}_v, *{c} = &{c}_v;',
               'tr_f_status_in(s_{n}, {c});'),
    'statuses': ('MPI_Fint *s_{n} = tr_f_statuses_arg({f}, f08_, {count});\n'
                 'MPI_Status *{c} = tr_f_cstatuses({count});',
                 'tr_f_statuses_in(s_{n}, {c}, {converted});'),
}
C_ONLY = {'argc', 'argv'}          # not in the Fortran interface
GATE_INIT = {'init', 'init_thread', 'finalize'}  # run before/after tracing is on


def parse(path):
    rows = []
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        name, role, family = line[:3]
        params = [tuple(p.split(':')) for p in line[3:]]
        for kind, _ in params:
            if kind not in C_TYPE:
                sys.exit(f'{path}: {name}: unknown kind {kind}')
        rows.append((name, role, family, params))
    return rows


def cdecl(kind, name):
    t = C_TYPE[kind]
    return f'{t}{name}' if t.endswith('*') else f'{t} {name}'


def cparams(params, prefix=''):
    return ', '.join(cdecl(k, prefix + n) for k, n in params) or 'void'


def names(params, prefix=''):
    return ', '.join(prefix + n for _, n in params)


def hook_params(params, prefix=''):
    """The arguments a hook takes after its fixed ones."""
    return ''.join(', ' + prefix + n for _, n in params)


def is_generic(family):
    return family in ('plain', 'create', 'create_group') or family.startswith('coll:')


def pre_post(family):
    """The hooks of a family: (pre, post)."""
    if ':' in family and not family.startswith('coll:'):
        return tuple(family.split(':', 1))
    return family, family


def hooks(rows):
    """Every named hook {(kind, name): (first row, parameters)}: kind 'pre',
    'post' or 'rec'; all rows of one hook take the same parameters."""
    found = {}
    for name, _, family, params in rows:
        if family.startswith('coll:'):
            keys = [('rec', family[5:])]
            params = [p for p in params if p[0] != 'req_out']
        elif is_generic(family):
            continue
        else:
            pre, post = pre_post(family)
            keys = [k for k in (('pre', pre), ('post', post))
                    if k[1] not in ('enter', 'leave', 'complete')]
        for key in keys:
            sig = [k for k, _ in params]
            if key in found and [k for k, _ in found[key][1]] != sig:
                sys.exit(f'calls.tbl: {name}: hook {key[1]} takes other parameters than in '
                         f'{found[key][0]}')
            found.setdefault(key, (name, params))
    return found


def write_regions(rows, out):
    out.write('/* regions.h - generated by gen-wrappers.py from calls.tbl: the MPI\n'
              ' * functions libmapsim-trace wraps, {function, OTF2 region role}; the\n'
              ' * region id of a function is its row (enum TR_<function>). */\n'
              '#pragma once\n\n#define TR_REGIONS(X) \\\n')
    for name, role, _, _ in rows:
        out.write(f'  X(MPI_{name}, {role}) \\\n')
    out.write('\ntypedef enum {\n#define TR_REGION_ENUM(fn, role) TR_##fn,\n'
              '  TR_REGIONS(TR_REGION_ENUM)\n#undef TR_REGION_ENUM\n  TR_NREGIONS\n'
              '} tr_region;\n')


def write_hooks(rows, out):
    out.write('/* hooks.h - generated by gen-wrappers.py from calls.tbl: the hooks of\n'
              ' * every family of calls (implemented in wrap-*.c). A pre hook runs before\n'
              ' * the MPI call and returns the Enter time, the post hook after it with\n'
              ' * its return code; tr_rec_OP computes a collective\'s record. */\n'
              '#pragma once\n\n#include "traces/tracer/tracer.h"\n\n')
    for (kind, hook), (_, params) in sorted(hooks(rows).items()):
        if kind == 'rec':
            out.write(f'coll_rec tr_rec_{hook}(const tr_comm *c{hook_params_decl(params)});\n')
        elif kind == 'pre':
            out.write(f'uint64_t tr_pre_{hook}(tr_region reg{hook_params_decl(params)});\n')
        else:
            out.write(f'void tr_post_{hook}(tr_region reg, uint64_t t, int rc'
                      f'{hook_params_decl(params)});\n')


def hook_params_decl(params):
    return ''.join(', ' + cdecl(k, n) for k, n in params)


def body(name, family, params, call, p='', req_value=None):
    """The traced part of a wrapper: hooks around `call` (a statement that
    sets rc_); `p` prefixes the C arguments; `after` runs between the call
    and the post hook (Fortran: the outputs turned into C)."""
    reg = f'TR_MPI_{name}'
    if family == 'plain':
        return body(name, 'enter:leave', params, call, p)
    if family.startswith('coll:'):
        op = family[5:]
        comm = next(n for k, n in params if k == 'comm')
        req = [n for k, n in params if k == 'req_out']
        rec_args = hook_params([x for x in params if x[0] != 'req_out'], p)
        reqv = f'*{p}{req[0]}' if req else 'MPI_REQUEST_NULL'
        return [f'tr_comm *tc_ = NULL;',
                f'uint64_t t_ = tr_coll_begin({reg}, {p}{comm}, {1 if req else 0}, &tc_);',
                f'coll_rec cr_ = tc_ ? tr_rec_{op}(tc_{rec_args}) : (coll_rec){{ 0 }};',
                call,
                f'tr_coll_end({reg}, t_, tc_, &cr_, rc_, {reqv}, {1 if req else 0});']
    if family in ('create', 'create_group'):
        parent = next(n for k, n in params if k == 'comm')
        newc = next(n for k, n in params if k == 'comm_out')
        over = f'*{p}{newc}' if family == 'create_group' else f'{p}{parent}'
        return [f'uint64_t t_ = tr_create_begin({reg});', call,
                f'tr_create_end({reg}, t_, rc_, {p}{parent}, {over}, {p}{newc});']
    pre, post = pre_post(family)
    if pre == 'enter':
        first = f'uint64_t t_ = tr_enter({reg});'
    elif pre == 'complete':
        reqs = next((k, n) for k, n in params if k in ('req', 'reqs'))
        count = '1' if reqs[0] == 'req' else p + count_param(params, reqs[1])
        first = f'uint64_t t_ = tr_pre_complete({reg}, {count}, {p}{reqs[1]});'
    else:
        first = f'uint64_t t_ = tr_pre_{pre}({reg}{hook_params(params, p)});'
    if post == 'leave':
        last = f'tr_leave({reg}, MAX(t_, tr_clock()));'
    else:
        last = f'tr_post_{post}({reg}, t_, rc_{hook_params(params, p)});'
    return [first, call, last]


def write_c(rows, out):
    out.write('/* wrap-c.c - generated by gen-wrappers.py from calls.tbl: the C wrappers.\n'
              ' * A status the caller ignores is replaced by one of ours (receives need\n'
              ' * it); the hooks see every argument as the program passed it. */\n'
              '#include "traces/tracer/hooks.h"\n\n')
    for name, _, family, params in rows:
        args = names(params)
        out.write(f'TR_API int MPI_{name}({cparams(params)})\n{{\n')
        gate = 'tr.nested' if family in GATE_INIT else '!tr_active()'
        out.write(f'  if ({gate})\n    return PMPI_{name}({args});\n')
        for kind, n in params:
            if kind == 'status':
                out.write(f'  MPI_Status own_{n};\n  if ({n} == MPI_STATUS_IGNORE)\n'
                          f'    {n} = &own_{n};\n')
            elif kind == 'statuses':
                count = count_param(params, n)
                out.write(f'  if ({n} == MPI_STATUSES_IGNORE)\n'
                          f'    {n} = tr_status_scratch({count});\n')
        lines = body(name, family, params, f'int rc_ = PMPI_{name}({args});')
        for l in lines:
            out.write(f'  {l}\n')
        out.write('  return rc_;\n}\n\n')


def count_param(params, before):
    """The count of an array parameter: the int parameter before it."""
    last = None
    for k, n in params:
        if n == before:
            return last
        if k == 'int':
            last = n
    raise SystemExit(f'calls.tbl: no count before {before}')


def f_type(kind):
    return 'void *' if kind in ('cbuf', 'vbuf') else 'MPI_Fint *'


def fortran_symbols(name, params):
    """(symbol, is_f08) of every Fortran entry point: mpif.h/`use mpi` in the
    four manglings, and the mpi_f08 one (MPICH names those with a choice
    buffer *_f08ts_: their buffers come as array descriptors)."""
    low = 'mpi_' + name.lower()
    syms = [(low, 0), (low + '_', 0), (low + '__', 0), (low.upper(), 0)]
    has_buf = any(k in ('cbuf', 'vbuf') for k, _ in params)
    return syms, low + ('_f08ts_' if has_buf else '_f08_'), low + '_f08_'


def write_fortran(rows, out):
    out.write('/* wrap-fortran.c - generated by gen-wrappers.py from calls.tbl: the\n'
              ' * Fortran wrappers (fortran.c has their helpers). */\n'
              '#include "traces/tracer/hooks.h"\n#include "traces/tracer/fortran.h"\n\n'
              '/* every argument is turned into C, whether its family reads it or not */\n'
              '#pragma GCC diagnostic ignored "-Wunused-variable"\n'
              '#pragma GCC diagnostic ignored "-Wunused-but-set-variable"\n\n')
    for name, _, family, params in rows:
        if any(k == 'str' for k, _ in params):
            continue  # character arguments: hidden lengths, not wrapped
        fparams = [(k, n) for k, n in params if k not in C_ONLY]
        fdecl = ''.join(f'{f_type(k)}f_{n}, ' for k, n in fparams) + 'MPI_Fint *ierr'
        fargs = ''.join(f'f_{n}, ' for _, n in fparams) + 'ierr'
        out.write(f'typedef void tr_f_{name}_fn({fdecl});\n\n')
        out.write(f'static void tr_f_{name}(tr_fsym *sym_, int f08_, {fdecl})\n{{\n')
        out.write(f'  tr_f_{name}_fn *orig_ = (tr_f_{name}_fn *)tr_f_orig(sym_);\n')
        gate = 'tr.nested' if family in GATE_INIT else '!tr_active()'
        out.write(f'  if ({gate}) {{\n    orig_({fargs});\n    return;\n  }}\n')
        out.write('  MPI_Fint ierr_own_ = MPI_SUCCESS;\n  if (ierr == NULL)\n'
                  '    ierr = &ierr_own_;\n')
        before, after, call_args, late = [], [], [], []
        prev_buf = None
        for kind, n in params:
            if kind not in F_FORM:
                raise SystemExit(f'calls.tbl: {name}: kind {kind} has no Fortran form')
            decl, update = F_FORM[kind]
            v = {'c': 'c_' + n, 'f': 'f_' + n, 'n': n, 'buf': prev_buf,
                 'slot': 0 if 'send' in n else 1}
            if kind in ('reqs', 'statuses'):
                v['count'] = 'c_' + count_param(params, n)
                v['converted'] = ('c_outcount_v == MPI_UNDEFINED ? 0 : c_outcount_v'
                                  if any(x == 'outcount' for _, x in params) else v['count'])
            (late if kind == 'types' else before).extend(decl.format(**v).split('\n'))
            if update:
                after.append(update.format(**v))
            if kind in ('cbuf', 'vbuf'):
                prev_buf = v['c']
        for k, n in fparams:
            call_args.append(f's_{n}' if k in ('status', 'statuses') else f'f_{n}')
        call = ('tr.nested++;\n  orig_(' + ', '.join(call_args + ['ierr']) + ');\n'
                '  tr.nested--;\n  ' + '\n  '.join(after) + ('\n  ' if after else '') +
                'int rc_ = (int)*ierr;')
        for l in before + late:
            out.write(f'  {l}\n')
        for l in body(name, family, params, call, 'c_'):
            out.write(f'  {l}\n')
        out.write('}\n\n')
        plain, f08ts, f08 = fortran_symbols(name, params)
        entries = plain + [(f08ts, 1)]
        for sym, is_f08 in entries:
            guard = ''
            if is_f08 and f08ts != f08:
                # Open MPI's mpi_f08 takes plain addresses: mpi_NAME_f08_
                out.write('#if TR_F08_DESCRIPTORS\n')
                write_entry(out, name, sym, 1, fdecl, fargs)
                out.write('#else\n')
                write_entry(out, name, f08, 1, fdecl, fargs)
                out.write('#endif\n')
            else:
                write_entry(out, name, sym, is_f08, fdecl, fargs)
        out.write('\n')


def write_entry(out, name, sym, is_f08, fdecl, fargs):
    out.write(f'static tr_fsym fs_{sym} = {{ "{sym}", NULL }};\n'
              f'TR_API void {sym}({fdecl});\n'
              f'TR_API void {sym}({fdecl})\n{{\n'
              f'  tr_f_{name}(&fs_{sym}, {is_f08}, {fargs});\n}}\n')


def main():
    tbl, regions, hooks, wrap_c, wrap_f = sys.argv[1:6]
    rows = parse(tbl)
    with open(regions, 'w') as out:
        write_regions(rows, out)
    with open(hooks, 'w') as out:
        write_hooks(rows, out)
    with open(wrap_c, 'w') as out:
        write_c(rows, out)
    with open(wrap_f, 'w') as out:
        write_fortran(rows, out)


if __name__ == '__main__':
    main()
