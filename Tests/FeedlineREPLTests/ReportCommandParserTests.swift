@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineREPL
import Testing

/// `report` and `rules` as typed: the row, options in any order, the comment as the rest of the
/// line; a misuse is one sentence saying how to say it.
@Suite("report parsing")
struct ReportCommandParserTests {
    static func parsed(_ line: String) -> ReportCommand? {
        if case .success(.report(let command)) = CommandParser.parse(line) { return command }
        return nil
    }

    static func failure(_ line: String) -> String? {
        if case .failure(let error) = CommandParser.parse(line) { return error.message }
        return nil
    }

    @Test("the row, every option and the comment as typed")
    func full() throws {
        let command = try #require(Self.parsed("report 3 --posts 5,7,5 --forward --category violation --rules 2,1 --yes Spam  links, again & again"))
        #expect(command.row == 3)
        #expect(command.posts == [5, 7])
        #expect(command.forward && command.confirmed)
        #expect(command.category == .violation)
        #expect(command.rules == [2, 1])
        #expect(command.comment == "Spam  links, again & again")
        #expect(CommandParser.parse(command.text) == .success(.report(command)), "text parses back")
    }

    @Test("without a row (on a post), without a comment, in any case")
    func minimal() throws {
        let bare = try #require(Self.parsed("REPORT"))
        #expect(bare.row == nil && bare.comment.isEmpty && bare.category == .other && !bare.confirmed)
        let spam = try #require(Self.parsed("report --category SPAM 4"))
        #expect(spam.row == nil, "a number after an option is the comment, not the row")
        #expect(spam.comment == "4" && spam.category == .spam)
        #expect(CommandParser.parse("rules") == .success(.rules))
        #expect(CommandParser.parse("rules 2") == .failure(.unexpectedArgument(.rules, "2")))
    }

    @Test("misuse is said in one sentence", arguments: [
        ("report 3 --rules 1", "--rules names the rules broken, so it goes with --category violation (this report is other); rules lists them."),
        ("report 3 --category violation", "--category violation names the rules broken: add --rules with their numbers (rules lists them)."),
        ("report 3 --category rude", "\"rude\" is not a category; --category takes spam, legal, violation, other."),
        ("report 3 --category", "--category needs one of spam, legal, violation, other."),
        ("report 3 --posts", "--posts needs numbers, for example: --posts 3,5."),
        ("report 3 --posts 2,x", "\"x\" is not a number; --posts takes numbers separated by commas, for example: --posts 3,5."),
        ("report 3 --loud", "report does not take \"--loud\"; usage: report N [--posts 3,5] [--forward] [--category spam|legal|violation|other] [--rules 1,2] [--yes] COMMENT."),
    ])
    func misuse(_ line: String, _ sentence: String) {
        #expect(Self.failure(line) == sentence)
    }

    @Test("a comment longer than Mastodon takes is refused before anything is asked")
    func tooLong() {
        #expect(Self.failure("report 3 " + String(repeating: "a", count: 1_001)) == "The comment is 1001 characters; moderators read at most 1000.")
        #expect(Self.parsed("report 3 " + String(repeating: "a", count: 1_000)) != nil)
    }
}
