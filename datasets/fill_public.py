#!/usr/bin/env python3
"""One-off helper: replaces each line `# @public <id:variant>` in datasets/*.yaml with the public
domains and category lists computed from the full data file by the C++ loader itself
(tests/data/public_tool.cpp). Usage: python3 datasets/fill_public.py build-data/test_data [ids...]"""
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
            blocks[cur] = []
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
