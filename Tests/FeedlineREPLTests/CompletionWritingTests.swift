import Feedline
import FeedlineREPL
import Testing

/// Tab while writing (issue 34): a post's text completes `@handle`, `#tag` and `:emoji:` — what
/// the session saw first, then what the server found — after `post`, `reply N` and `edit N` and
/// on every line of a draft, whose first word also completes its dot commands.
@Suite("Tab completion while writing")
struct CompletionWritingTests {
    static var seen: CompletionContext {
        CompletionContext(commands: ["post", "reply"], tags: ["birds", "birdfeeder"], handles: ["kemi@fieldnotes.science", "ruth"])
    }

    static var writing: CompletionContext {
        var context = seen
        context.writing = true
        return context
    }

    @Test("the text of post, reply N and edit N completes the handles and hashtags seen; other arguments do not")
    func commandText() {
        let complete = { (line: String, word: String) in Completion.matches(line: line, word: word, context: Self.seen) }
        #expect(complete("reply 1 @k", "@k") == ["@kemi@fieldnotes.science"])
        #expect(complete("reply 1 hello @R", "@R") == ["@ruth"])
        #expect(complete("post see #birdf", "#birdf") == ["#birdfeeder"])
        #expect(complete("edit 3 #bir", "#bir") == ["#birds", "#birdfeeder"])
        #expect(complete("post k", "k").isEmpty, "a word without @, # or : is text")
        #expect(complete("open @k", "@k").isEmpty)
    }

    @Test("a draft's line: dot commands first, then .visibility's audiences; @, # and : anywhere; never the screen's commands")
    func draftLines() {
        let complete = { (line: String, word: String) in Completion.matches(line: line, word: word, context: Self.writing) }
        #expect(complete(".sh", ".sh") == [".show"])
        #expect(complete(".", ".").contains(".back") && complete(".", ".").contains(".undo"))
        #expect(complete(".visibility f", "f") == ["followers"])
        #expect(complete("po", "po").isEmpty, "a draft's word is not a command")
        #expect(complete("Counted with @k", "@k") == ["@kemi@fieldnotes.science"])
        #expect(complete("..sh", "..sh").isEmpty)
        #expect(complete("frogs :fr", ":fr").isEmpty, "no emoji before the server answers")
    }

    @Test("what the server found comes after what was seen, each once; emoji close with a colon")
    func serverSuggestions() {
        var context = Self.writing
        context.foundHandles = ["kwame@kestrel.social", "KEMI@fieldnotes.science"]
        context.searched = ["k"]
        context.moreTags = ["birdsong", "birds"]
        context.emoji = ["frog", "ferris", "tea"]
        let complete = { (line: String, word: String) in Completion.matches(line: line, word: word, context: context) }
        #expect(complete("@k", "@k") == ["@kemi@fieldnotes.science", "@kwame@kestrel.social"])
        #expect(complete("#birds", "#birds") == ["#birds", "#birdsong"])
        #expect(complete(":f", ":f") == [":frog:", ":ferris:"])
    }

    @Test("what to ask the server: accounts for each new start after @, hashtags and emoji once; nothing for the screen's words")
    func lookups() {
        var context = Self.writing
        #expect(Completion.lookup(line: "@Ka", word: "@Ka", context: context) == .accounts("ka"))
        #expect(Completion.lookup(line: "#b", word: "#b", context: context) == .tags)
        #expect(Completion.lookup(line: "hi :f", word: ":f", context: context) == .emoji)
        #expect(Completion.lookup(line: ".sh", word: ".sh", context: context) == nil)
        #expect(Completion.lookup(line: "@", word: "@", context: context) == nil, "no search for nothing")
        #expect(Completion.lookup(line: "@ka@x", word: "@ka@x", context: context) == nil, "a full handle is not a start")
        context.searched = ["ka"]
        context.moreTags = []
        context.emoji = []
        #expect(Completion.lookup(line: "@ka", word: "@ka", context: context) == nil)
        #expect(Completion.lookup(line: "#b", word: "#b", context: context) == nil)
        #expect(Completion.lookup(line: ":f", word: ":f", context: context) == nil)
        #expect(Completion.lookup(line: "reply 1 @ka", word: "@ka", context: Self.seen) == .accounts("ka"))
        #expect(Completion.lookup(line: "profile @ka", word: "@ka", context: Self.seen) == nil)
    }

    @Test("a handle, hashtag, shortcode or list title holding an escape, a bidi control or an invisible character is never offered (Tab's text is echoed as it is)")
    func hostileWordsAreNotOffered() {
        var context = Self.writing
        context.handles = ["kemi@fieldnotes.science", "k\u{1B}]52;c;cm0gLXJmIH4=\u{07}@evil.example"]
        context.foundHandles = ["k\u{202E}lana@evil.example"]
        context.searched = ["k"]
        context.tags = ["birds", "bird\u{9B}31m"]
        context.moreTags = ["bird\u{200B}s"]
        context.emoji = ["frog", "fr\u{1B}[2Jog"]
        let complete = { (line: String, word: String) in Completion.matches(line: line, word: word, context: context) }
        #expect(complete("@k", "@k") == ["@kemi@fieldnotes.science"])
        #expect(complete("#bird", "#bird") == ["#birds"])
        #expect(complete(":fr", ":fr") == [":frog:"])
        var screen = Self.seen
        screen.handles = ["k\u{1B}[31m@evil.example"]
        screen.lists = ["Birders", "Bad\u{1B}[2J"]
        #expect(Completion.matches(line: "profile @k", word: "@k", context: screen).isEmpty)
        #expect(Completion.matches(line: "reply 1 @k", word: "@k", context: screen).isEmpty)
        #expect(Completion.matches(line: "lists open B", word: "B", context: screen) == ["Birders"])
    }
}
