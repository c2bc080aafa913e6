#!/usr/bin/env python3
"""A maintainer's draft helper: replaces each line `# @public <id:variant>` in datasets/*.yaml with the
ranges and category lists FOUND IN THE DATA FILE ITSELF by the C++ loader (tests/data/public_tool.cpp),
under a `# DRAFT from the data file` marker. Those values are not public knowledge (they leak the rows'
extremes and which categories occur): check each against the dataset's public documentation and remove
the marker before the entry is used (datasets/README.md, "How to add a dataset to the registry").
Usage: python3 datasets/fill_public.py build/test_data [ids...]"""
import glob, os, re, subprocess, sys

binary = sys.argv[1]
only = set(sys.argv[2:])
pat = re.compile(r'^[ \t]*# @public (\S+)[ \t]*$', re.M)
for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), '*.yaml'))):
    text = open(path).read()
    specs = pat.findall(text)
    if not specs or (only and os.path.basename(path)[:-5] not in only):
        continue
    out = subprocess.run([binary, '-ts=tools', '--no-skip'], env=dict(os.environ, DPF_TOOL_SPECS=' '.join(specs)),
                         capture_output=True, text=True)
    blocks = {}
    cur = None
    for line in out.stdout.splitlines():
        if line.startswith('@@ '):
            cur = line.split()[1]
            blocks[cur] = ["    # DRAFT from the data file (not public knowledge): check every value against the "
                           "dataset's documentation, then delete this line"]
            print(path, line)
        elif cur and line.startswith('    '):
            blocks[cur].append(line)
        elif line.startswith('='):
            cur = None
    if out.returncode != 0 or len(blocks) != len(specs):
        print(path, 'FAILED', out.stdout[-3000:], out.stderr[-2000:])
        continue
    text = pat.sub(lambda m: '\n'.join(blocks[m.group(1)]), text)
    open(path, 'w').write(text)
