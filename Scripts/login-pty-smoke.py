#!/usr/bin/env python3
"""Drives `feedline login` under a pseudo-terminal (pexpect) as a person would: waits for the
authorization address, presses Return on an empty line (asked again), opens the address as the
browser would (the test's fake server answers with the code page), types the code at the
`Code: ` prompt, and checks the sign-in. Then runs the interactive REPL on the stored account,
its history file named by config.toml, and checks that the access token shows neither on the
terminal (everything either child wrote) nor in the history file nor in config.toml.

Usage: login-pty-smoke.py FEEDLINE_BINARY PACKAGE_ROOT SERVER_URL SCRATCH_DIR
SCRATCH_DIR becomes XDG_CONFIG_HOME and HOME. Prints "ok" and exits 0 when every check passes;
otherwise names the failed check and exits 1.
"""
import io
import json
import os
import re
import sys
import urllib.request

import pexpect

# A safety net only: every step waits for the text it expects, never for time to pass.
TIMEOUT = 240


def fail(step, child=None):
    before = child.before if child is not None and isinstance(child.before, str) else ""
    sys.stderr.write(f"login pty smoke: {step} failed; last output:\n{before[-2000:]}\n")
    sys.exit(1)


def expect(child, pattern, step):
    try:
        child.expect(pattern, timeout=TIMEOUT)
    except (pexpect.TIMEOUT, pexpect.EOF):
        fail(step, child)


def main():
    binary, root, server, scratch = sys.argv[1:5]
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", XDG_CONFIG_HOME=scratch, XDG_STATE_HOME=os.path.join(scratch, "state"), HOME=scratch)
    env.pop("FEEDLINE_TOKEN", None)
    # Every byte either child writes to the terminal, whatever the expects matched.
    terminal = io.StringIO()

    child = pexpect.spawn(binary, ["login", server], cwd=root, env=env, encoding="utf-8", dimensions=(40, 200))
    child.logfile_read = terminal
    expect(child, r"Open this address in a browser", "instructions")
    expect(child, r"\s+(https?://\S+)\s", "the authorization address")
    address = child.match.group(1)
    expect(child, r"Code: ", "the code prompt")
    # An empty line asks again.
    child.send("\r")
    expect(child, r"Nothing was pasted", "an empty line is refused")
    expect(child, r"Code: ", "the prompt again")
    # The browser's part: the fake server's page shows the code.
    with urllib.request.urlopen(address, timeout=60) as response:
        page = response.read().decode("utf-8")
    found = re.search(r'class="oauth-code"[^>]*value="([^"]+)"', page)
    if not found:
        fail(f"the authorization page shows a code ({page!r})")
    child.send(found.group(1) + "\r")
    expect(child, r"Signed in as (@alice@\S+)\.", "signed in")
    handle = child.match.group(1)
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    child.close()
    if child.exitstatus != 0:
        fail(f"login exits 0 (it exited {child.exitstatus})")

    accounts = os.path.join(scratch, "feedline", "accounts")
    files = os.listdir(accounts)
    if len(files) != 1:
        fail(f"one account file ({files})")
    path = os.path.join(accounts, files[0])
    if os.stat(path).st_mode & 0o777 != 0o600:
        fail("the account file is 0600")
    with open(path, encoding="utf-8") as handle_file:
        token = json.load(handle_file)["access_token"]

    # The REPL on the stored account, interactive: a command, then quit. The history file comes
    # from config.toml (HOME is the scratch directory, so ~/ is inside it).
    config = os.path.join(scratch, "feedline", "config.toml")
    with open(config, "w", encoding="utf-8") as config_file:
        config_file.write('# written by the smoke test\nhistory = "~/history"\nwidth = 100\n')
    history = os.path.join(scratch, "history")
    child = pexpect.spawn(binary, ["--now", "2026-11-21T18:00:00Z"], cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    child.logfile_read = terminal
    expect(child, re.escape(handle[1:]), "the greeting names the account")
    expect(child, r"Rows 1–10 of 20 shown", "the home timeline")
    expect(child, r"home> ", "the prompt")
    child.send("list\r")
    expect(child, r"Rows 1–10 of 20 shown", "list")
    expect(child, r"home> ", "the prompt after list")
    child.send("quit\r")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    child.close()
    if child.exitstatus != 0:
        fail(f"the session exits 0 (it exited {child.exitstatus})")

    with open(history, encoding="utf-8") as history_file:
        saved = history_file.read()
    if "list" not in saved:
        fail(f"the history file named by config.toml holds the commands ({saved!r})")
    with open(config, encoding="utf-8") as config_file:
        settings = config_file.read()
    shown = terminal.getvalue()
    if "Signed in as" not in shown or "home>" not in shown:
        fail("the terminal log holds both sessions")
    for name, text in [("the terminal", shown), ("the history file", saved), ("config.toml", settings)]:
        if token in text:
            fail(f"the token stays out of {name}")
    print("ok")


if __name__ == "__main__":
    main()
