#!/usr/bin/env python3
"""Drives the interactive `feedline` under a pseudo-terminal (pexpect) and checks what only a
terminal shows: Tab completion of command words, history kept in the history file and recalled
with Up on the next run, Ctrl-C clearing the line, Ctrl-D quitting, output that arrives while the
user types, the terminal settings restored on the way out (Ctrl-D, and SIGTERM with status 143),
and a history file that cannot be written reported on the first screen.

With `resize` it checks that rows follow the terminal's width when no --width is given: the
first page is drawn at 120 columns, and after each resize (SIGWINCH) to 60, 250, 60 and 120
columns `list` draws every row at the width of the moment.

With `complete` it checks Tab on arguments from the first screen on, before any command: a
handle with its `@` (readline must not break the word there) or without it, from a row not shown
yet, and a hashtag; each completed line runs and opens the screen it names.

With `sigint` it checks SIGINT at any point instead: at the prompt with a half-typed line, while a
page loads (the sandbox's 150–400 ms latency on the real clock), on the detail screen while its
thread loads, ten times in a row, as Ctrl-C and as kill(2); after each the session still works,
and `quit` / Ctrl-D exit 0 with the terminal restored.

With `editor` it checks writing a post in $EDITOR: `post` gives the terminal to the editor (a
script that writes the text and checks it was handed a draft file with the context below the
marker, on a terminal in cooked mode), takes it back, shows the draft with its `compose>`
prompt, and `.` posts it; then the terminal is restored on the way out.

With `numbers` it checks that row numbers hold still while the sandbox's stream deletes a row
above them: a number names the row printed with it until `list`.

With `reading` it checks what only an interactive session does: `help` fits a 40-row terminal,
`browse` opens the post with $BROWSER, search rows print once, and a relationship change says it
started, then its outcome, with the account row printed once, settled.

With `account-switch CONFIG_HOME ALICE BOB` it checks `account NAME` on a terminal: Tab
completes a stored account's name, the switch keeps the console (prompt, history, line editing),
and the terminal is restored at the end.

With `sandbox-switch` it checks `account NAME` on the bundled sandbox: Tab completes `kemi`, the
switch names her in the prompt, a draft written as kemi stays hers (not yours) across a restart
with the state kept, and the terminal is restored.

Usage: repl-pty-smoke.py FEEDLINE_BINARY PACKAGE_ROOT [sigint|resize|state|complete|compose-complete|numbers|editor|reading|sandbox-switch|account-switch CONFIG_HOME ALICE BOB]
Prints "ok" and exits 0 when every check passes; otherwise names the failed check and exits 1.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import unicodedata

import pexpect

# A safety net only: every step waits for the text it expects, never for time to pass, so a
# slow machine (a ThreadSanitizer build, other work running) just takes longer.
TIMEOUT = 240



def scratch_homes():
    """A fresh config home (none there: no account, no config file) and state home (no saved
    timeline) for one run, so nothing of the developer's or of an earlier run reaches it."""
    scratch = tempfile.mkdtemp(prefix="feedline-pty-")
    return {"XDG_CONFIG_HOME": os.path.join(scratch, "no-config"), "XDG_STATE_HOME": os.path.join(scratch, "state")}

def fail(step, child=None):
    before = child.before if child is not None and isinstance(child.before, str) else ""
    sys.stderr.write(f"pty smoke: {step} failed; last output:\n{before[-2000:]}\n")
    sys.exit(1)


def expect(child, pattern, step):
    try:
        child.expect(pattern, timeout=TIMEOUT)
    except (pexpect.TIMEOUT, pexpect.EOF):
        fail(step, child)


def ctrl_d_exits(child, step):
    """Ctrl-D at the prompt ends the session with status 0 and the output ends."""
    child.sendcontrol("d")
    expect(child, r"EXIT=0", step)
    child.expect(pexpect.EOF, timeout=TIMEOUT)


def check_restored(child, step):
    """After feedline exits the shell prints its status and the terminal settings."""
    expect(child, r"(-?icanon)", f"terminal settings after {step}")
    if child.match.group(1) != "icanon":
        fail(f"terminal restored after {step} (icanon)", child)
    expect(child, r"(-?echo) ", f"echo setting after {step}")
    if child.match.group(1) != "echo":
        fail(f"terminal restored after {step} (echo)", child)
    child.expect(pexpect.EOF, timeout=TIMEOUT)


def sigint(binary, root):
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-state"
    command = f"/bin/bash -c \"trap '' INT; {args}; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon\\|-\\?echo ' \""

    def spawn():
        child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
        expect(child, r"Rows 1–10 of 20 shown", "first page")
        expect(child, "home> ", "first prompt")
        pid = int(subprocess.check_output(["pgrep", "-P", str(child.pid)]).split()[0])
        return child, pid

    def expect_all(child, patterns, step):
        """Waits until every pattern has shown, in any order (output that arrives on its own can
        come before or after the ^C)."""
        waiting = list(patterns)
        while waiting:
            try:
                index = child.expect(waiting, timeout=TIMEOUT)
            except (pexpect.TIMEOUT, pexpect.EOF):
                fail(f"{step} (still waiting for {waiting})", child)
            del waiting[index]

    def interrupted(child, step, prompt="home> "):
        expect(child, r"\^C", f"{step}: ^C shown")
        expect(child, prompt, f"{step}: a fresh prompt")

    child, pid = spawn()
    # At the prompt with a half-typed line, by kill(2): the line is dropped, not run.
    child.send("refre")
    expect(child, "refre", "half-typed line echoed")
    os.kill(pid, signal.SIGINT)
    interrupted(child, "SIGINT with a half-typed line")
    child.send("help back\r")
    expect(child, r"back\s+Go back|Go back to the previous screen", "a command after SIGINT runs")
    expect(child, "home> ", "prompt after help back")
    # During a page load (real clock, 150–400 ms): the load goes on and its rows arrive.
    child.send("more\r")
    expect(child, r"Loading older posts…", "page load started")
    os.kill(pid, signal.SIGINT)
    expect_all(child, [r"\^C", r"Rows 1–20 of 40 shown"], "SIGINT during a page load: ^C, and the page still arrives")
    expect(child, "home> ", "prompt after SIGINT during a page load")
    # On the detail screen while its thread loads, by Ctrl-C: the post prompt comes back.
    child.send("open 2\r")
    expect(child, "Family storytime", "detail shown")
    child.send("fa")
    expect(child, "fa", "half-typed line echoed")
    child.sendcontrol("c")
    expect_all(child, [r"\^C", r"No replies\.|Replies \(|In reply to:|none is shown here"], "Ctrl-C on the detail screen: ^C, and the thread still loads")
    expect(child, "post> ", "post prompt after Ctrl-C")
    child.send("fav\r")
    expect(child, "★ 267 favourites", "fav on the detail after Ctrl-C")
    child.send("back\r")
    expect(child, r"~  2  Ruth Calder", "back after Ctrl-C")
    expect(child, "home> ", "timeline prompt after back")
    # Ten in a row, as fast as they can be sent, half by kill(2) and half by Ctrl-C.
    child.send("ope")
    expect(child, "ope", "half-typed line echoed before ten SIGINTs")
    for number in range(10):
        if number % 2 == 0:
            os.kill(pid, signal.SIGINT)
        else:
            child.sendcontrol("c")
    expect(child, r"\^C", "ten SIGINTs: ^C shown")
    child.send("list\r")
    expect(child, r"home> list", "list typed after ten SIGINTs")
    expect(child, r"Rows 1–20 shown|Rows 1–20 of", "list runs after ten SIGINTs")
    expect(child, "home> ", "prompt after list")
    if not os.path.exists(f"/proc/{pid}"):
        fail("feedline still running after the SIGINTs", child)
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit after SIGINTs exits 0")
    check_restored(child, "quit after SIGINTs")

    # SIGINT, then Ctrl-D on an empty line: exit 0, terminal restored.
    child, pid = spawn()
    child.send("gap 1")
    expect(child, "gap 1", "half-typed line echoed before SIGINT")  # kill(2), unlike Ctrl-C, does not flush typed-ahead input
    os.kill(pid, signal.SIGINT)
    interrupted(child, "SIGINT before Ctrl-D")
    child.sendcontrol("d")
    expect(child, r"EXIT=0", "Ctrl-D after SIGINT exits 0")
    check_restored(child, "Ctrl-D after SIGINT")
    print("ok")


ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[@-Z\\-_])")


def columns(line):
    """Display width of a line of terminal output: escape sequences take none, wide characters two."""
    # A carriage return starts the line over: what shows is as wide as the widest stretch.
    return max(
        sum(2 if unicodedata.east_asian_width(ch) in "WF" else (0 if unicodedata.combining(ch) else 1) for ch in part)
        for part in ANSI.sub("", line).split("\r")
    )


def resize(binary, root):
    """Rows follow the terminal through several resizes: 120 columns, then 60, then 250 —
    every row of each `list` drawn at the width of the moment (the marks end at the right
    edge), none at an older width."""
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --no-state"
    child = pexpect.spawn(f"/bin/sh -c \"{args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 120))
    expect(child, r"Rows 1–10 of 20 shown", "first page")
    first = child.before.split("\n")
    expect(child, "home> ", "first prompt")
    if max(columns(line) for line in first) <= 100:
        fail("the first page uses the terminal's 120 columns", child)
    # The width is read when a command starts; list draws every row of the screen again.
    for width in (60, 250, 60, 120):
        child.setwinsize(40, width)
        child.send("list\r")
        expect(child, r"Rows 1–10 of 20 shown", f"list after the resize to {width}")
        # What follows the echoed prompt on its line is the first row.
        drawn = [ANSI.sub("", line).split("home> ")[-1] for line in child.before.split("\n") if not line.rstrip().endswith("list")]
        marked = [columns(line) for line in drawn if "☆" in line or "★" in line]
        widest = max(columns(line) for line in drawn)
        if widest > width:
            fail(f"rows fit in {width} columns after the resize (widest line: {widest})", child)
        if len(marked) < 10 or any(found != width for found in marked):
            fail(f"every row drawn at {width} columns after the resize (rows' widths: {marked})", child)
        expect(child, "home> ", f"prompt after list at {width}")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    print("ok")


def reading(binary, root):
    """What only an interactive session does: `help` fits a 40-row terminal, `browse` opens the
    post with $BROWSER (a script here that writes the address to a file), search rows print once
    (with their relationship), and a relationship change says it started, then its outcome, with
    the account row printed once, settled."""
    scratch = tempfile.mkdtemp(prefix="feedline-pty-")
    history = os.path.join(scratch, "history")
    opened = os.path.join(scratch, "opened")
    browser = os.path.join(scratch, "browser.sh")
    with open(browser, "w") as f:
        f.write(f"#!/bin/sh\nprintf '%s' \"$1\" > '{opened}.part' && mv '{opened}.part' '{opened}'\n")
    os.chmod(browser, 0o755)
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", BROWSER=browser, **scratch_homes())
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 100 --no-stream --no-state"
    child = pexpect.spawn(f"/bin/sh -c \"{args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 20 shown", "first page")
    expect(child, "home> ", "first prompt")
    child.send("help\r")
    expect(child, r"Session: [^\r\n]*quit", "help's last kind")
    expect(child, "home> ", "prompt after help")
    shown = [line for line in child.before.split("\n") if line.strip()]
    if len(shown) > 38:
        fail(f"help fits a 40-row terminal ({len(shown)} lines)", child)
    child.send("browse 1\r")
    expect(child, r"Opened with ", "browse opens the post")
    expect(child, "home> ", "prompt after browse")
    # The browser runs on its own: wait for what it wrote (a deadline only as a safety net).
    deadline = TIMEOUT * 10
    while not os.path.exists(opened) and deadline > 0:
        child.expect([pexpect.TIMEOUT], timeout=0.1)
        deadline -= 1
    if not os.path.exists(opened):
        fail("the browser was started on the post's address", child)
    with open(opened) as f:
        address = f.read()
    if address != "https://inkwell.art/@sam/117645532415779633":
        fail(f"the browser was given the post's address (got {address!r})", child)
    child.send("search kemi\r")
    expect(child, r"End of results\.", "search results")
    results = child.before
    expect(child, "search kemi> ", "prompt after the results")
    if results.count("Dr. Kemi Adeyemi @kemi@fieldnotes.science") != 1 or "you follow them" not in results:
        fail("an account row of the search printed once, with its relationship", child)
    child.send("mute 1\r")
    expect(child, r"Muting @kemi@fieldnotes\.science", "the mute says it started")
    expect(child, r"Done: muted @kemi@fieldnotes\.science\.", "the mute's outcome")
    expect(child, r"~  1  Dr\. Kemi Adeyemi", "the row, settled")
    expect(child, r"muted · notified", "the row shows the mute")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    print("ok")


def state(binary, root):
    """An interactive session keeps its state in $XDG_STATE_HOME/feedline without being asked:
    the second run shows the rows the first loaded, at once, and counts none waiting."""
    homes = scratch_homes()
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **homes)
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    command = f"/bin/sh -c \"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream; echo EXIT=$?\""
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 20 shown", "first page of the first run")
    expect(child, "home> ", "first prompt")
    child.send("more\r")
    expect(child, r"Rows 1–20 of 40 shown", "more in the first run")
    ctrl_d_exits(child, "Ctrl-D exits 0")
    if not os.path.exists(os.path.join(homes["XDG_STATE_HOME"], "feedline", "sandbox.sqlite")):
        fail("the state file is in $XDG_STATE_HOME/feedline")
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 40 shown", "the second run starts from the saved rows")
    expect(child, "home> ", "prompt of the second run")
    ctrl_d_exits(child, "Ctrl-D exits 0 in the second run")
    print("ok")


def complete(binary, root):
    """Tab completes handles and hashtags of rows received, before any command and for rows not
    shown yet: three rows per screen, Rowan's post is row 5 and #birdfeeder's row 9."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --page-size 3 --no-stream --no-state"
    child = pexpect.spawn(f"/bin/sh -c \"{args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–3 of 20 shown", "first screen")
    expect(child, "home> ", "first prompt")
    # With the @, from the first screen on: the word is @ro, not ro after a break at @.
    child.send("profile @ro\t")
    expect(child, "bramble.zone ", "Tab completes @ro to @rowan@bramble.zone")
    child.send("\r")
    expect(child, "Loading the profile…", "the completed profile command runs")
    expect(child, "@rowan> ", "Rowan's profile opened from the completed handle")
    child.send("back\r")
    expect(child, "home> ", "back home")
    # Without the @: completed without it, which profile takes too.
    child.send("profile ro\t\r")
    expect(child, "@rowan> ", "profile ro<Tab> completes to rowan@bramble.zone and opens the profile")
    child.send("back\r")
    expect(child, "home> ", "back home again")
    child.send("tag birdf\t\r")
    expect(child, "#birdfeeder> ", "tag birdf<Tab> completes a hashtag of a row not shown yet")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    print("ok")


def numbers(binary, root):
    """Row numbers hold still while the stream changes the list: the sandbox's stream deletes
    Garden Bird Log's post (row 9) after the sixth command; the rows below it move up, but 10
    still names the post printed as row 10, 9 answers that its row was removed, and list
    renumbers."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-state"
    child = pexpect.spawn(f"/bin/sh -c \"{args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"  9  Garden Bird Log", "row 9 is Garden Bird Log's post")
    expect(child, r" 10  Dr\. Kemi Adeyemi", "row 10 is Kemi's post")
    expect(child, r"Rows 1–10 of 20 shown", "first screen")
    for step in range(6):
        expect(child, "home> ", f"prompt before command {step + 1}")
        child.send("where\r")
    expect(child, r"removed: post by Garden Bird Log \(was row 9\)", "the stream's delete is shown as it arrives")
    expect(child, "home> ", "prompt after the delete")
    child.send("fav 10\r")
    expect(child, r"~ 10  Dr\. Kemi Adeyemi[^\n]*★ 503", "fav 10 favourites the post printed as row 10, shown as row 10")
    expect(child, "home> ", "prompt after fav 10")
    child.send("fav 9\r")
    expect(child, r"Row 9 was removed \(post by Garden Bird Log\)", "fav 9 says its row was removed")
    expect(child, "home> ", "prompt after fav 9")
    child.send("list\r")
    expect(child, r"  9  Dr\. Kemi Adeyemi", "list renumbers: Kemi's post is row 9")
    expect(child, "home> ", "prompt after list")
    child.send("unfav 9\r")
    expect(child, r"~  9  Dr\. Kemi Adeyemi[^\n]*☆ 502", "after list, 9 names Kemi's post")
    expect(child, "home> ", "prompt after unfav 9")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    print("ok")


def markers_held(binary, root, server):
    """An interactive start on a server whose markers do not answer (the test holds them far
    longer than TIMEOUT): the first screen still comes, and the session quits normally."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    command = (f"/bin/sh -c \"'{binary}' --history '{history}' --server '{server}' --timeline home"
               f" --now 2026-11-21T18:00:00Z --width 80 --no-stream; echo EXIT=$?\"")
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–", "the first screen while the markers are held")
    expect(child, "home> ", "the prompt while the markers are held")
    ctrl_d_exits(child, "Ctrl-D exits 0")
    print("ok")


def editor(binary, root):
    """`post` opens $EDITOR on the draft and takes the terminal back; `.` sends what it wrote."""
    scratch = tempfile.mkdtemp(prefix="feedline-pty-")
    script = os.path.join(scratch, "editor.sh")
    seen = os.path.join(scratch, "seen")
    pid_file = os.path.join(scratch, "feedline.pid")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                "# What a person does in the editor: reads the context, presses Ctrl-C (vim leaves\n"
                "# insert mode with it; the terminal sends feedline a SIGINT too), writes the text, saves.\n"
                f"stty -a | grep -o -- '-\\?icanon' > '{seen}'\n"
                f"feedline=$(cat '{pid_file}'); kill -INT \"$feedline\"\n"
                "# Until feedline's handler has taken it (no SIGINT pending), so it came while the editor ran.\n"
                "while grep -q '^ShdPnd:.*[2367abef]$' \"/proc/$feedline/status\"; do :; done\n"
                f"grep -c '^# ---- feedline' \"$1\" >> '{seen}'\n"
                "# Reads the terminal, as every editor does: only a foreground process may (vim run in a\n"
                "# process group of its own exited with \"Error reading input\").\n"
                f"printf 'editor reads> '; read -r word; echo \"$word\" >> '{seen}'\n"
                "{ printf 'Written in the editor.\\nSecond line.\\n'; sed -n '/^# ---- feedline/,$p' \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n")
    os.chmod(script, 0o755)
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", EDITOR=script, **scratch_homes())
    env.pop("VISUAL", None)
    history = os.path.join(scratch, "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream --no-state"
    command = f"/bin/bash -c \"{args}; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon\\|-\\?echo ' \""
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 20 shown", "first page")
    expect(child, "home> ", "first prompt")
    with open(pid_file, "w") as f:
        f.write(subprocess.check_output(["pgrep", "-P", str(child.pid)]).split()[0].decode())
    child.send("post\r")
    expect(child, "editor reads> ", "the editor asks the terminal for a word")
    child.send("typed\r")
    expect(child, r"Text: \"Written in the editor\. Second line\.\"", "the text the editor wrote is the draft's")
    shown = child.before + child.after
    # 500 less the 35 characters written: the prompt counts what the editor wrote.
    expect(child, r"compose 465> ", "the compose prompt with the characters left after the editor")
    if "^C" in shown + child.before:
        fail("a Ctrl-C typed in the editor is the editor's: feedline shows no ^C for it", child)
    with open(seen) as f:
        lines = f.read().split()
    if lines != ["icanon", "1", "typed"]:
        fail(f"the editor ran on a cooked terminal it could read, with the marker in its file (saw {lines})", child)
    child.send(".\r")
    expect(child, r"Posted: \"Written in the editor\. Second line\.\"", "the post is sent")
    expect(child, "home> ", "back to the home prompt")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    check_restored(child, "quit after the editor")
    print("ok")


def compose_complete(binary, root):
    """Tab while writing: `reply 1 @ro<Tab>` completes a handle seen; at compose> `:fr<Tab>`
    and `@kw<Tab>` ask the server (custom emoji, an account search) and complete when it answers
    (readline rings the bell first, then inserts the rest); `.sh<Tab>` completes `.show`."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream --no-state"
    # The shell ignores SIGINT itself, so the Ctrl-C below reaches only feedline's handler.
    child = pexpect.spawn(f"/bin/bash -c \"trap '' INT; {args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 20 shown", "first screen")
    expect(child, "home> ", "first prompt")
    child.send("reply 1 @ro\t")
    expect(child, "bramble.zone ", "reply 1 @ro<Tab> completes to @rowan@bramble.zone")
    child.send("\x03")
    expect(child, "home> ", "Ctrl-C clears the line")
    child.send("post\r")
    expect(child, "lists the rest", "post opens a draft")
    expect(child, "compose 500> ", "the compose prompt")
    child.send(":fr\t")
    expect(child, "og: ", ":fr<Tab> completes to :frog: once the server's emoji arrive")
    child.send("@kw\t")
    expect(child, "ame@kestrel.social ", "@kw<Tab> completes to an account the server found")
    child.send("\r")
    expect(child, "compose 486> ", "the line is in the draft (a mention counts its username only, as Mastodon counts it)")
    child.send(".sh\t")
    expect(child, "ow ", ".sh<Tab> completes .show")
    child.send("\r")
    expect(child, ":frog: @kwame@kestrel.social", ".show shows the completed line")
    child.send(".discard\r")
    expect(child, "home> ", "back home")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)
    print("ok")


def account_switch(binary, root, config_home, alice, bob):
    """Two accounts signed in under CONFIG_HOME (bob the default): `account al<Tab>` completes
    alice's name, Enter switches on the same console (the prompt names alice, her home loads),
    Up recalls the switch from this session's history, line editing still works, and Ctrl-D
    ends with the terminal restored."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    env["XDG_CONFIG_HOME"] = config_home
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream"
    command = f"/bin/bash -c \"{args}; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon\\|-\\?echo ' \""
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, re.escape(f"{bob} home> "), "the prompt names bob")
    expect(child, r"Rows 1–", "bob's first screen")
    child.send("account al\t")
    expect(child, re.escape(alice.split("@", 1)[1]) + " ", "Tab completes alice's name")
    child.send("\r")
    expect(child, re.escape(f"as @{alice}."), "the greeting of alice's session")
    expect(child, r"Rows 1–", "alice's first screen")
    expect(child, re.escape(f"{alice} home> "), "the prompt names alice")
    child.send("\x1b[A")
    expect(child, "account " + re.escape(alice), "Up recalls the switch: the history carries on")
    # Line editing still works: erase the recalled line and type another.
    child.send("\x15where\r")
    expect(child, re.escape(f"{alice} home> "), "a command after the switch")
    child.sendcontrol("d")
    expect(child, r"EXIT=0", "Ctrl-D exits 0 after a switch")
    check_restored(child, "a switch")
    with open(history, encoding="utf-8") as handle:
        saved = handle.read()
    if f"account {alice}" not in saved:
        fail(f"history file holds the switch (it holds {saved!r})")
    print("ok")


def sandbox_switch(binary, root):
    """The bundled sandbox's second identity: `account k<Tab>` completes kemi, Enter switches
    (her greeting, her home, `kemi@sandbox home> `), a draft written as her is kept when you
    switch back; after Ctrl-D and a new start (the state kept in $XDG_STATE_HOME), your drafts
    do not hold it and hers do."""
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    # `post` writes at compose> here, not in an editor.
    for name in ("VISUAL", "EDITOR"):
        env.pop(name, None)
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream"
    command = f"/bin/bash -c \"{args}; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon\\|-\\?echo ' \""
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–", "your first screen")
    expect(child, "home> ", "your prompt")
    child.send("account k\t")
    expect(child, "emi ", "Tab completes kemi")
    # Each line typed, then what must follow it, in order.
    for typed, patterns, step in [
        ("\r", [re.escape("the home timeline of kemi in the bundled sandbox"), "Inês Duarte", re.escape("kemi@sandbox home> ")],
         "her greeting, her home, the prompt naming her"),
        ("post\r", ["compose 500> "], "a draft as kemi"),
        ("Trays for the larvae.\r.back\r", ["Draft kept"], "the draft kept"),
        ("account you\r", [re.escape("drafts lists it when kemi@sandbox is opened again."), "Sam Whitfield"],
         "the draft stays hers, your home again"),
    ]:
        child.send(typed)
        for pattern in patterns:
            expect(child, pattern, step)
    child.sendcontrol("d")
    expect(child, r"EXIT=0", "Ctrl-D exits 0 after a switch")
    check_restored(child, "a sandbox switch")
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–", "the second run's first screen")
    child.send("drafts\r")
    expect(child, r"No drafts", "your drafts do not hold hers")
    child.send("account kemi\r")
    expect(child, re.escape("kemi@sandbox home> "), "kemi again")
    child.send("drafts\r")
    expect(child, "Trays for the larvae.", "her draft after the restart")
    child.sendcontrol("d")
    expect(child, r"EXIT=0", "Ctrl-D exits 0 in the second run")
    print("ok")


def main():
    binary, root = sys.argv[1], sys.argv[2]
    if sys.argv[3:] == ["sandbox-switch"]:
        sandbox_switch(binary, root)
        return
    if sys.argv[3:] == ["editor"]:
        editor(binary, root)
        return
    if sys.argv[3:4] == ["markers-held"] and len(sys.argv) == 5:
        markers_held(binary, root, sys.argv[4])
        return
    if sys.argv[3:4] == ["account-switch"] and len(sys.argv) == 7:
        account_switch(binary, root, *sys.argv[4:7])
        return
    if sys.argv[3:] == ["numbers"]:
        numbers(binary, root)
        return
    if sys.argv[3:] == ["compose-complete"]:
        compose_complete(binary, root)
        return
    if sys.argv[3:] == ["complete"]:
        complete(binary, root)
        return
    if sys.argv[3:] == ["state"]:
        state(binary, root)
        return
    if sys.argv[3:] == ["sigint"]:
        sigint(binary, root)
        return
    if sys.argv[3:] == ["resize"]:
        resize(binary, root)
        return
    if sys.argv[3:] == ["reading"]:
        reading(binary, root)
        return
    history = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "history")
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", **scratch_homes())
    # Without the sandbox's stream: the counts below are the fixture pages' (its live events have
    # their own golden session, Fixtures/sessions/live.feedline).
    args = f"'{binary}' --history '{history}' --now 2026-11-21T18:00:00Z --width 80 --no-stream --no-state"
    # The shell prints the terminal settings after feedline exits: they must be the cooked ones.
    # It ignores SIGINT itself, so Ctrl-C reaches only feedline's handler and the shell lives on.
    command = f"/bin/bash -c \"trap '' INT; {args}; echo EXIT=$?; stty -a | grep -o -- '-\\?icanon\\|-\\?echo ' \""

    # First run: Tab completion, a command, Ctrl-C, Ctrl-D.
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, "home> ", "first prompt")
    expect(child, r"Rows 1–10 of 20 shown", "first page shown above the prompt")
    child.send("he\t")
    expect(child, "help ", "Tab completes 'he' to 'help'")
    child.send("\r")
    expect(child, "Commands on home by kind", "help after completion")
    expect(child, "home> ", "prompt after help")
    child.send("op\t2\r")
    expect(child, r"Family storytime", "open 2 via completion")
    expect(child, "post> ", "post prompt")
    child.send("fav\r")
    expect(child, "★ 267 favourites", "fav in the detail")
    child.send("back\r")
    expect(child, r"~  2  Ruth Calder", "changed row after back")
    # Ctrl-C discards a half-typed line and gives a fresh prompt.
    child.send("refre")
    # Wait for readline to echo the half-typed line, so the Ctrl-C lands on it (not before it).
    expect(child, "refre", "half-typed line echoed")
    child.sendcontrol("c")
    expect(child, r"\^C", "Ctrl-C echoed")
    expect(child, "home> ", "fresh prompt after Ctrl-C")
    child.send("list\r")
    expect(child, r"Rows 1–10 of 20 shown", "list after Ctrl-C (the discarded text is not run)")
    # Output arriving while typing: more loads a page (real clock: a few hundred ms).
    child.send("more\r")
    expect(child, r"Loading older posts…", "loading shown")
    # Type while the page is still on its way: it is printed above the half-typed line.
    child.send("hel")
    expect(child, r"Rows 1–20 of 40 shown", "page arrives above the prompt")
    expect(child, r"home> hel", "the half-typed line is redrawn under the new output")
    child.send("\tfav\r")
    expect(child, r"fav N \(also: favourite, favorite\)", "the half-typed line was kept: 'help fav' ran")
    expect(child, "home> ", "prompt after help fav")
    child.sendcontrol("d")
    expect(child, r"EXIT=0", "Ctrl-D quits with status 0")
    expect(child, r"(-?icanon)", "terminal settings after exit")
    if child.match.group(1) != "icanon":
        fail("terminal restored (icanon)", child)
    expect(child, r"(-?echo) ", "echo setting after exit")
    if child.match.group(1) != "echo":
        fail("terminal restored (echo)", child)
    child.expect(pexpect.EOF, timeout=TIMEOUT)

    with open(history, encoding="utf-8") as handle:
        saved = handle.read()
    for line in ["help", "open 2", "fav", "back", "list", "more", "help fav"]:
        if not re.search(rf"^{re.escape(line)}$", saved, re.MULTILINE):
            fail(f"history file holds {line!r} (it holds {saved!r})")
    if "refre" in saved:
        fail("the line discarded with Ctrl-C stayed out of the history")

    # Second run: Up recalls the last line of the previous run; quit ends it.
    child = pexpect.spawn(f"/bin/sh -c \"{args}; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, "home> ", "prompt of the second run")
    child.send("\x1b[A")
    expect(child, "help fav", "Up recalls the last command from the history file")
    child.send("\x1b[A\x1b[A\x1b[A")
    expect(child, "list", "Up again walks back through the history")
    child.send("\r")
    expect(child, r"Rows 1–10 of 20 shown", "the recalled command runs")
    child.send("quit\r")
    expect(child, r"EXIT=0", "quit exits 0")
    child.expect(pexpect.EOF, timeout=TIMEOUT)

    # Third run: SIGTERM while a line is half typed ends with 143 and a restored terminal.
    child = pexpect.spawn(command, cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"Rows 1–10 of 20 shown", "first page of the third run")
    child.send("ope")
    expect(child, "ope", "half-typed line echoed before SIGTERM")
    feedline = int(subprocess.check_output(["pgrep", "-P", str(child.pid)]).split()[0])
    os.kill(feedline, signal.SIGTERM)
    expect(child, r"EXIT=143", "SIGTERM exits 128 + 15")
    expect(child, r"(-?icanon)", "terminal settings after SIGTERM")
    if child.match.group(1) != "icanon":
        fail("terminal restored after SIGTERM (icanon)", child)
    expect(child, r"(-?echo) ", "echo setting after SIGTERM")
    if child.match.group(1) != "echo":
        fail("terminal restored after SIGTERM (echo)", child)
    child.expect(pexpect.EOF, timeout=TIMEOUT)

    # Fourth run: a history file that cannot be written is reported, and the session goes on.
    unwritable = os.path.join(tempfile.mkdtemp(prefix="feedline-pty-"), "missing-dir", "history")
    child = pexpect.spawn(f"/bin/sh -c \"'{binary}' --history '{unwritable}' --width 80; echo EXIT=$?\"", cwd=root, env=env, encoding="utf-8", dimensions=(40, 100))
    expect(child, r"The history file \S+ cannot be written \(no such file or directory\); this session's commands", "unwritable history reported")
    expect(child, "home> ", "prompt with an unwritable history")
    child.send("help top\r")
    expect(child, r"Go back to the bottom", "a command runs with an unwritable history")
    ctrl_d_exits(child, "Ctrl-D exits 0 with an unwritable history")
    print("ok")


if __name__ == "__main__":
    main()
