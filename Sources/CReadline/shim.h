// GNU readline for Swift. readline's headers need <stdio.h> first.
//
// Swift 6 rejects direct use of readline's mutable C globals ("not concurrency-safe"), so the
// few the REPL needs are read and written through these small inline functions. They are only
// called from the one thread that owns the terminal (see ReadlineConsole).
#ifndef FEEDLINE_CREADLINE_SHIM_H
#define FEEDLINE_CREADLINE_SHIM_H

#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

/// Installs the completion hook (called with the word, its start and end in the line).
static inline void feedline_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Completion words are broken at white space only, as the REPL's parser splits words: readline's
/// default also breaks at `@` (and `$`, `=`, `<`, `>`, quotes …), which would make `@ro` in
/// `profile @ro` two words and leave a handle nothing to complete. Call before reading starts.
static inline void feedline_set_word_breaks(void) {
    rl_basic_word_break_characters = " \t\n";
    rl_completer_word_break_characters = " \t\n";
}

/// Stops readline from falling back to file-name completion for this attempt.
static inline void feedline_completion_over(void) {
    rl_attempted_completion_over = 1;
}

/// The line being edited (NULL before readline starts).
static inline const char *feedline_line_buffer(void) {
    return rl_line_buffer;
}

/// Turns off readline's own signal handlers: the REPL handles SIGINT and SIGWINCH itself.
static inline void feedline_disable_signals(void) {
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
}

/// Writes `text` to standard output through stdio (readline's stream) and flushes it.
static inline void feedline_write_stdout(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}

/// Flushes stdio's standard output.
static inline void feedline_flush_stdout(void) {
    fflush(stdout);
}

/// The command bound to Ctrl-C's character: discards the line being edited and shows a fresh
/// prompt on a new line. The terminal turns Ctrl-C into SIGINT; the REPL feeds the character to
/// readline when the signal arrives, so this runs inside readline's own key dispatch.
static inline int feedline_interrupt_command(int count, int key) {
    (void)count;
    (void)key;
    rl_replace_line("", 0);
    rl_point = 0;
    rl_end = 0;
    fputs("^C\n", stdout);
    fflush(stdout);
    rl_on_new_line();
    return 0;
}

/// Binds Ctrl-C's character (3) to ``feedline_interrupt_command``.
static inline void feedline_bind_interrupt(void) {
    rl_bind_key(3, feedline_interrupt_command);
}

/// Installs the function readline reads keys with.
static inline void feedline_set_getc(rl_getc_func_t *function) {
    rl_getc_function = function;
}

/// The number of bytes waiting on `fd` (0 when none or unknown).
static inline int feedline_bytes_waiting(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return 0;
    return count;
}

/// Prints `text` above the prompt, keeping the half-typed line and the cursor where they were.
static inline void feedline_print_above(const char *text) {
    rl_clear_visible_line();
    fputs(text, stdout);
    fflush(stdout);
    rl_on_new_line();
    rl_forced_update_display();
}

/// Makes readline forget the last command, so that a Tab fed to it next completes afresh
/// (inserting the match) rather than listing the matches as a second Tab in a row would.
static inline void feedline_forget_last_command(void) {
    rl_last_func = NULL;
}

/// Clears the prompt line and stops reading (the way out after `quit`).
static inline void feedline_finish(void) {
    rl_clear_visible_line();
    fflush(stdout);
    rl_callback_handler_remove();
}

/// Changes the prompt and redraws the line with it.
static inline void feedline_change_prompt(const char *prompt) {
    rl_clear_visible_line();
    rl_set_prompt(prompt);
    rl_on_new_line();
    rl_forced_update_display();
}

/// The column count of the terminal on `fd`, or 0 when `fd` is not a terminal.
static inline int feedline_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

#endif
