import Feedline
import FeedlineREPL
import Testing

@Suite("Command parser")
struct CommandParserTests {
    static let table: [(String, Result<Command, ParseError>)] = [
        ("", .success(.nothing)),
        ("   \t  ", .success(.nothing)),
        ("# a comment", .success(.nothing)),
        ("#open 3", .success(.nothing)),
        ("list", .success(.list(.screen))),
        ("ls", .success(.list(.screen))),
        ("  LIST  ", .success(.list(.screen))),
        ("list all", .success(.list(.all))),
        ("list ALL", .success(.list(.all))),
        ("list 11", .success(.list(.from(11)))),
        ("list some", .failure(.notARange("some"))),
        ("bookmark 4", .success(.bookmark(row: 4))),
        ("bookmark", .success(.bookmark(row: nil))),
        ("bookmarks", .success(.screen(.bookmarks))),
        ("favourites", .success(.screen(.favourites))),
        ("favorites", .success(.screen(.favourites))),
        ("notifications", .success(.screen(.notifications))),
        ("notifications mentions", .success(.notificationsOf([.mention]))),
        ("notifs Favorites", .success(.notificationsOf([.favourite]))),
        ("notifications reblogs,follows", .success(.notificationsOf([.reblog, .follow]))),
        ("notifications requests", .success(.notificationsOf([.followRequest]))),
        ("notifications edits", .success(.notificationsOf([.update]))),
        ("notifications likes", .failure(.notAKind("likes"))),
        ("notifications mentions boosts", .failure(.unexpectedArgument(.notifications, "boosts"))),
        ("home", .success(.screen(.home))),
        ("local", .success(.screen(.local))),
        ("public", .success(.screen(.public))),
        ("federated", .success(.screen(.public))),
        ("thread 2", .success(.thread(row: 2))),
        ("thread", .success(.thread(row: nil))),
        ("quote 6", .success(.quote(row: 6))),
        ("quote", .success(.quote(row: nil))),
        ("profile 5", .success(.profile(.row(5)))),
        ("profile @kemi@fieldnotes.science", .success(.profile(.handle("kemi@fieldnotes.science")))),
        ("profile ruth", .success(.profile(.handle("ruth")))),
        ("profile", .success(.profile(nil))),
        ("profile @a@b@c", .failure(.notAHandle("@a@b@c"))),
        ("profile @", .failure(.notAHandle("@"))),
        // A handle with a port, as Feedline names the signed-in user of a server with one.
        ("profile @grace@127.0.0.1:38111", .success(.profile(.handle("grace@127.0.0.1:38111")))),
        ("profile grace@localhost:3000", .success(.profile(.handle("grace@localhost:3000")))),
        ("profile @grace@[::1]:8080", .success(.profile(.handle("grace@[::1]:8080")))),
        ("profile @grace@[::1]", .success(.profile(.handle("grace@[::1]")))),
        ("profile @grace@host:", .failure(.notAHandle("@grace@host:"))),
        ("profile @grace@host:0", .failure(.notAHandle("@grace@host:0"))),
        ("profile @grace@host:65536", .failure(.notAHandle("@grace@host:65536"))),
        ("profile @grace@host:80:80", .failure(.notAHandle("@grace@host:80:80"))),
        ("profile @grace@:80", .failure(.notAHandle("@grace@:80"))),
        ("profile @grace@host:8a", .failure(.notAHandle("@grace@host:8a"))),
        ("profile @grace:80", .failure(.notAHandle("@grace:80"))),
        ("profile @grace@[::g]:80", .failure(.notAHandle("@grace@[::g]:80"))),
        ("tag birds", .success(.tag("birds"))),
        ("tag #Birds", .success(.tag("Birds"))),
        ("tag café_2", .success(.tag("café_2"))),
        ("tag", .failure(.missingTag)),
        ("tag a/b", .failure(.notAHashtag("a/b"))),
        ("top", .success(.top)),
        ("where", .success(.whereAmI)),
        ("where now", .failure(.unexpectedArgument(.whereAmI, "now"))),
        ("more", .success(.more)),
        ("open 3", .success(.open(row: 3))),
        ("open\t3", .success(.open(row: 3))),
        ("open 007", .success(.open(row: 7))),
        ("open 0", .success(.open(row: 0))),
        ("fav 12", .success(.favourite(row: 12))),
        ("favourite 2", .success(.favourite(row: 2))),
        ("favorite 2", .success(.favourite(row: 2))),
        ("fav", .success(.favourite(row: nil))),
        ("unfav 3", .success(.undo(.favourite, row: 3))),
        ("unfavourite", .success(.undo(.favourite, row: nil))),
        ("unboost 1", .success(.undo(.reblog, row: 1))),
        ("unreblog", .success(.undo(.reblog, row: nil))),
        ("unbookmark 7", .success(.undo(.bookmark, row: 7))),
        ("boost 1", .success(.boost(row: 1))),
        ("reblog", .success(.boost(row: nil))),
        ("gap 21", .success(.gap(row: 21))),
        ("refresh", .success(.refresh)),
        ("retry", .success(.retry)),
        ("back", .success(.back)),
        ("help", .success(.help(nil))),
        ("?", .success(.help(nil))),
        ("help fav", .success(.help(.fav))),
        ("help ls", .success(.help(.list))),
        ("quit", .success(.quit)),
        ("exit", .success(.quit)),
        ("fva", .failure(.unknownCommand("fva", suggestion: .fav))),
        ("opne 3", .failure(.unknownCommand("opne", suggestion: .open))),
        ("refesh", .failure(.unknownCommand("refesh", suggestion: .refresh))),
        ("ref", .failure(.unknownCommand("ref", suggestion: .refresh))),
        ("xyzzy", .failure(.unknownCommand("xyzzy", suggestion: nil))),
        ("🐸", .failure(.unknownCommand("🐸", suggestion: nil))),
        ("ＯＰＥＮ 1", .failure(.unknownCommand("ＯＰＥＮ", suggestion: nil))),
        ("open", .failure(.missingRow(.open))),
        ("gap", .failure(.missingRow(.gap))),
        ("open x", .failure(.notARow(.open, "x"))),
        ("open -1", .failure(.notARow(.open, "-1"))),
        ("open +1", .failure(.notARow(.open, "+1"))),
        ("open 3.5", .failure(.notARow(.open, "3.5"))),
        ("open ３", .failure(.notARow(.open, "３"))),
        ("open ٣", .failure(.notARow(.open, "٣"))),
        ("open 99999999999999999999", .failure(.rowTooLarge(.open, "99999999999999999999"))),
        ("open 1 2", .failure(.unexpectedArgument(.open, "2"))),
        ("more please", .failure(.unexpectedArgument(.more, "please"))),
        ("help me please", .failure(.unexpectedArgument(.help, "please"))),
        ("help lsit", .failure(.unknownTopic("lsit", suggestion: .list))),
        ("search birds of prey", .success(.search("birds of prey"))),
        ("find  @kemi@fieldnotes.science ", .success(.search("@kemi@fieldnotes.science"))),
        ("search #Tea", .success(.search("#Tea"))),
        ("search", .failure(.missingQuery)),
        ("search   ", .failure(.missingQuery)),
        ("followers", .success(.accountList(.followers, nil))),
        ("followers 3", .success(.accountList(.followers, .row(3)))),
        ("following @kemi@fieldnotes.science", .success(.accountList(.following, .handle("kemi@fieldnotes.science")))),
        ("following x/y", .failure(.notAHandle("x/y"))),
        ("endorsed", .success(.accountList(.endorsed, nil))),
        ("endorsed 4", .success(.accountList(.endorsed, .row(4)))),
        ("featured-accounts @kemi@fieldnotes.science", .success(.accountList(.endorsed, .handle("kemi@fieldnotes.science")))),
        ("followers 1 2", .failure(.unexpectedArgument(.followers, "2"))),
        ("mutes", .success(.screen(.mutes))),
        ("blocks", .success(.screen(.blocks))),
        ("requests", .success(.screen(.requests))),
        ("requests 2", .failure(.unexpectedArgument(.requests, "2"))),
        ("accept 2", .success(.answer(row: 2, accept: true))),
        ("authorize 2", .success(.answer(row: 2, accept: true))),
        ("reject 1", .success(.answer(row: 1, accept: false))),
        ("accept", .failure(.missingRow(.accept))),
        ("reject me", .failure(.notARow(.reject, "me"))),
        ("block-domain promo.example", .success(.domainBlock(DomainBlockCommand(value: true, target: .domain("promo.example"))))),
        ("block-domain @Promo.Example --yes", .success(.domainBlock(DomainBlockCommand(value: true, target: .domain("promo.example"), confirmed: true)))),
        ("block-domain -y 3", .success(.domainBlock(DomainBlockCommand(value: true, target: .row(3), confirmed: true)))),
        ("block-domain", .success(.domainBlock(DomainBlockCommand(value: true)))),
        ("unblock-domain 2", .success(.domainBlock(DomainBlockCommand(value: false, target: .row(2))))),
        ("unblock-domain promo.example --yes", .failure(.unknownOption(.unblockDomain, "--yes"))),
        ("block-domain user@promo.example", .failure(.notADomain(.blockDomain, "user@promo.example"))),
        ("block-domain localhost", .failure(.notADomain(.blockDomain, "localhost"))),
        ("block-domain @-a.example", .failure(.notADomain(.blockDomain, "@-a.example"))),
        ("block-domain a.example b.example", .failure(.unexpectedArgument(.blockDomain, "b.example"))),
        ("domains", .success(.screen(.domains))),
        ("filters", .success(.screen(.filters))),
        ("tags", .success(.screen(.tags))),
        ("conversations", .success(.screen(.conversations))),
        ("dms", .success(.screen(.conversations))),
        ("conversations 2", .failure(.unexpectedArgument(.conversations, "2"))),
        ("remove 3", .success(.removeConversation(row: 3))),
        ("remove", .failure(.missingRow(.remove))),
        ("remove me", .failure(.notARow(.remove, "me"))),
        ("dismiss 4", .success(.dismissNotification(row: 4))),
        ("dismiss", .failure(.missingRow(.dismiss))),
        ("dismiss --all", .success(.answerAllNotificationRequests(accept: false))),
        ("accept --all", .success(.answerAllNotificationRequests(accept: true))),
        ("reject --all", .failure(.notARow(.reject, "--all"))),
        ("notifications clear", .success(.clearNotifications(confirmed: false))),
        ("notifs CLEAR --YES", .success(.clearNotifications(confirmed: true))),
        ("notifications clear now", .failure(.unexpectedArgument(.notifications, "now"))),
        ("notifications filtered", .success(.notificationRequests)),
        ("notifs FILTERED", .success(.notificationRequests)),
        ("notifications filtered now", .failure(.unexpectedArgument(.notifications, "now"))),
        ("notifications requests", .success(.notificationsOf([.followRequest]))),
        ("announcements", .success(.screen(.announcements))),
        ("announcements read 2", .success(.readAnnouncement(row: 2))),
        ("ANNOUNCEMENTS Read --ALL", .success(.readAllAnnouncements)),
        ("announcements read all", .success(.readAllAnnouncements)),
        ("announcements read", .failure(.announcements("announcements read takes a row number or --all, for example: announcements read 2."))),
        ("announcements read two", .failure(.announcements("\"two\" is not a row number; announcements read takes a row number or --all, for example: announcements read 2."))),
        ("announcements dismiss 2", .failure(.unexpectedArgument(.announcements, "dismiss"))),
        ("trends", .success(.trends(tags: false))),
        ("trending tags", .success(.trends(tags: true))),
        ("trends posts", .failure(.unexpectedArgument(.trends, "posts"))),
        ("follow #Birds", .success(.followTag("birds", true))),
        ("unfollow #café_2", .success(.followTag("café_2", false))),
        ("follow #", .failure(.notAHashtag("#"))),
        ("follow #a/b", .failure(.notAHashtag("#a/b"))),
        ("follow #" + String(repeating: "ß", count: 51), .success(.followTag(String(repeating: "ß", count: 51), true))),
        ("follow #birds 3", .failure(.unexpectedArgument(.follow, "3"))),
        ("lists", .success(.lists(.show))),
        ("LISTS  ", .success(.lists(.show))),
        ("lists new Field notes", .success(.lists(.create("Field notes")))),
        ("lists new \"Field notes\"", .success(.lists(.create("Field notes")))),
        ("lists new", .failure(.lists("lists new needs a name, for example: lists new Birders."))),
        ("lists new \"\"", .failure(.lists("lists new needs a name, for example: lists new Birders."))),
        ("lists rename \"Field notes\" Notes", .success(.lists(.rename(.name("Field notes"), "Notes")))),
        ("lists rename 2 Pond survey", .success(.lists(.rename(.row(2), "Pond survey")))),
        ("lists rename Birders", .failure(.lists("lists rename needs a new name after the list, for example: lists rename \"Field notes\" Notes."))),
        ("lists rename", .failure(.lists("lists rename needs a list and a new name, for example: lists rename Birders Birdwatch."))),
        ("lists delete Field notes", .success(.lists(.delete(.name("Field notes"), confirmed: false)))),
        ("lists delete \"Field notes\" --YES", .success(.lists(.delete(.name("Field notes"), confirmed: true)))),
        ("lists delete \"--yes\"", .success(.lists(.delete(.name("--yes"), confirmed: false)))),
        ("lists delete \"3\"", .success(.lists(.delete(.name("3"), confirmed: false)))),
        ("lists delete 3", .success(.lists(.delete(.row(3), confirmed: false)))),
        ("lists delete --yes", .failure(.lists("lists delete needs a list, for example: lists delete Birders."))),
        ("lists delete \"Field notes", .failure(.lists("A quote is not closed: \"Field notes."))),
        ("lists add Field notes @kemi@fieldnotes.science", .success(.lists(.membership(.name("Field notes"), handle: "kemi@fieldnotes.science", add: true)))),
        ("lists remove 1 @ruth", .success(.lists(.membership(.row(1), handle: "ruth", add: false)))),
        ("lists add Birders", .failure(.lists("lists add needs a list and an account, for example: lists add Birders @kemi@fieldnotes.science."))),
        ("lists add Birders kemi", .failure(.lists("\"kemi\" is not a handle; lists add needs a list and an account, for example: lists add Birders @kemi@fieldnotes.science."))),
        ("lists add a\"b @kemi", .failure(.lists("A list's name in quotes holds no other quote: \"a\"b\"."))),
        ("lists accounts Birders", .success(.lists(.accounts(.name("Birders"))))),
        ("lists open 99999999999999999999", .failure(.rowTooLarge(.lists, "99999999999999999999"))),
        ("lists show", .failure(.lists("lists takes new, rename, delete, add, remove, accounts or open, not \"show\"."))),
        // A line ending in separators after as many words as the parser reads (found by the fuzzer).
        ("\tmute 3tel --for 3 --for 1\t\t", .success(.relationship(RelationshipCommand(kind: .mute, value: true, target: .handle("3tel"), muteSeconds: 60)))),
        ("block @ruth --yes -y -y -y\t\t", .success(.relationship(RelationshipCommand(kind: .block, value: true, target: .handle("ruth"), confirmed: true)))),
        ("block-domain 3 --yes\t\t", .success(.domainBlock(DomainBlockCommand(value: true, target: .row(3), confirmed: true)))),
    ]

    @Test("the table of inputs parses as expected", arguments: table.indices)
    func parses(_ index: Int) {
        let (line, expected) = Self.table[index]
        #expect(CommandParser.parse(line) == expected, "input: \(line.debugDescription)")
    }

    @Test("law: a command's text parses back to the command (the command fuzz target checks it on any input)")
    func textRoundTrips() {
        var commands: [Command] = [
            .back, .boost(row: nil), .favourite(row: nil), .bookmark(row: nil), .thread(row: nil), .profile(nil), .help(nil),
            .list(.screen), .list(.all), .more, .nothing, .quit, .refresh, .retry, .top, .whereAmI, .tag("birds"),
            .profile(.handle("kemi@fieldnotes.science")), .profile(.handle("ruth")), .profile(.handle("grace@127.0.0.1:38111")),
        ]
        for row in [0, 3, Int.max] {
            commands += [
                .boost(row: row), .favourite(row: row), .bookmark(row: row), .gap(row: row), .open(row: row), .thread(row: row),
                .profile(.row(row)), .list(.from(row)),
            ]
        }
        for name: CommandName in [.bookmarks, .favourites, .notifications, .home, .local, .public] { commands.append(.screen(name)) }
        commands += CommandName.allCases.map { .help($0) }
        for list: ListReference in [.row(2), .name("Birders"), .name("Field notes"), .name("3"), .name("--YES"), .name("a\u{1B}b")] {
            commands += [
                .lists(.rename(list, "\"Quoted\"")), .lists(.rename(list, "Two  words")), .lists(.delete(list, confirmed: true)),
                .lists(.delete(list, confirmed: false)), .lists(.membership(list, handle: "kemi@fieldnotes.science", add: false)),
                .lists(.accounts(list)), .lists(.open(list)),
            ]
        }
        commands += NotificationGroup.Kind.filterable.map { .notificationsOf([$0.kind]) } + [.notificationsOf([.mention, .poll, .followRequest])]
        commands += [.lists(.show), .lists(.create("\"x\"")), .lists(.create("\"half")), .lists(.create("Birders"))]
        for command in commands {
            #expect(CommandParser.parse(command.text) == .success(command), "\(command) as \(command.text.debugDescription)")
        }
        #expect(Command.favourite(row: 3).text == "fav 3")
    }

    @Test("every error is one line that names the problem")
    func messages() {
        for (_, result) in Self.table {
            guard case .failure(let error) = result else { continue }
            #expect(!error.message.isEmpty)
            #expect(!error.message.contains("\n"))
            #expect(error.message.hasSuffix("."))
        }
        #expect(
            ParseError.notAKind("likes").message
                == "\"likes\" is not a kind of notification; notifications takes mentions, follows, favourites, boosts, polls, edits or requests, for example: notifications mentions."
        )
        #expect(ParseError.unknownCommand("fva", suggestion: .fav).message == "Unknown command \"fva\". Did you mean \"fav\"? Type help for the commands.")
    }

    @Test("echoed junk is cleaned and shortened")
    func echo() throws {
        let escape = "\u{1B}[31mred\u{7}"
        guard case .failure(let error) = CommandParser.parse(escape) else {
            Issue.record("escape sequence parsed as a command")
            return
        }
        #expect(!error.message.contains("\u{1B}"))
        #expect(!error.message.contains("\u{7}"))
        guard case .failure(let long) = CommandParser.parse(String(repeating: "z", count: 10_000)) else {
            Issue.record("a long word parsed as a command")
            return
        }
        #expect(long.message.count < 120)
    }

    @Test("total on junk: invalid UTF-8, control characters, NULs and a 1 MB line")
    func total() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = CommandParser.parse(bytes: bytes)
        }
        #expect(CommandParser.parse(bytes: [0x6F, 0x70, 0x65, 0x6E, 0x20, 0xFF, 0xFE]) == .failure(.notARow(.open, "\u{FFFD}\u{FFFD}")))
        #expect(CommandParser.parse("open\u{0}3") == .failure(.unknownCommand("open\u{0}3", suggestion: .open)))
        let megabyte = "open " + String(repeating: "9", count: 1 << 20)
        #expect(CommandParser.parse(megabyte) == .failure(.rowTooLarge(.open, String(repeating: "9", count: 1 << 20))))
        let spaces = String(repeating: " x", count: 1 << 19)
        #expect(CommandParser.parse("list" + spaces) == .failure(.unexpectedArgument(.list, "x")))
        let word = String(repeating: "ab", count: 1 << 19)
        if case .failure(.unknownCommand(_, let suggestion)) = CommandParser.parse(word) {
            #expect(suggestion == nil)
        } else {
            Issue.record("a megabyte word parsed as a command")
        }
    }

    static let context = CompletionContext(
        commands: CommandTable.commands(on: .list, atBottom: true).map(\.name.rawValue).sorted(),
        tags: ["birds", "birdfeeder", "gamedev"], handles: ["kemi@fieldnotes.science", "ruth"]
    )

    @Test("Tab completes the screen's command names (no aliases), then help topics, hashtags and handles")
    func completions() {
        let complete = { (line: String, word: String) in Completion.matches(line: line, word: word, context: Self.context) }
        #expect(complete("he", "he") == ["help", "home"].filter { $0.hasPrefix("he") })
        #expect(complete("re", "re") == ["redraft", "refresh", "reject", "reload", "remove", "reply", "report", "requests", "retry"])
        #expect(complete("f", "f") == ["fav", "favourited-by", "favourites", "filters", "follow", "followers", "following"])
        #expect(complete("boo", "boo") == ["boost", "boosted-by", "bookmark", "bookmarks", "boosts"].sorted())
        #expect(complete("ba", "ba").isEmpty, "no back at the bottom of the stack")
        #expect(complete("zz", "zz").isEmpty)
        #expect(!complete("", "").contains("?") && !complete("", "").contains("reblog"))
        #expect(complete("help o", "o") == ["open", "original"])
        #expect(complete("? ba", "ba") == ["back"])
        #expect(complete("tag bir", "bir") == ["birds", "birdfeeder"])
        #expect(complete("tag #g", "#g") == ["#gamedev"])
        #expect(complete("profile @k", "@k") == ["@kemi@fieldnotes.science"])
        #expect(complete("profile ", "") == ["@kemi@fieldnotes.science", "@ruth"])
        #expect(complete("profile @", "@") == ["@kemi@fieldnotes.science", "@ruth"])
        #expect(complete("endorsed @r", "@r") == ["@ruth"] && complete("following k", "k") == ["kemi@fieldnotes.science"])
        #expect(complete("notifications po", "po") == ["polls", "policy"] && complete("notifications men", "men") == ["mentions"])
        #expect(complete("notifications policy n", "n") == ["not-following", "not-followers", "new-accounts"])
        #expect(complete("notifications policy new-accounts ", "") == ["accept", "filter", "drop"])
        #expect(complete("notifications policy bogus ", "").isEmpty && complete("notifications policy new-accounts drop ", "").isEmpty)
        #expect(complete("announcements ", "") == ["read"] && complete("announcements read -", "-") == ["--all"])
        #expect(complete("accept --a", "--a") == ["--all"] && complete("dismiss -", "-") == ["--all"])
        #expect(complete("accept ", "").isEmpty && complete("reject -", "-").isEmpty && complete("dismiss --all ", "").isEmpty)
        #expect(complete("block-domain ", "") == ["fieldnotes.science"])
        #expect(complete("unblock-domain f", "f") == ["fieldnotes.science"])
        #expect(complete("block-domain x", "x").isEmpty)
        #expect(complete("follow #g", "#g") == ["#gamedev"])
        var withLists = Self.context
        withLists.lists = ["Birders", "Field notes"]
        let lists = { (line: String, word: String) in Completion.matches(line: line, word: word, context: withLists) }
        #expect(lists("lists ", "") == ListsCommand.actions)
        #expect(lists("lists re", "re") == ["remove", "rename"])
        #expect(lists("lists rename ", "") == ["Birders", "\"Field notes\""])
        #expect(lists("lists delete \"fi", "\"fi") == ["\"Field notes\""])
        #expect(lists("lists add Birders @k", "@k") == ["@kemi@fieldnotes.science"])
        #expect(lists("lists new ", "").isEmpty)
        // Begun without @, a handle completes without it (profile takes either).
        #expect(complete("profile k", "k") == ["kemi@fieldnotes.science"])
        #expect(complete("profile RU", "RU") == ["ruth"])
        #expect(complete("open 1", "1").isEmpty)
        #expect(complete("tag birds x", "x").isEmpty)
        let above = CompletionContext(commands: CommandTable.commands(on: .post, atBottom: false).map(\.name.rawValue).sorted())
        #expect(Completion.matches(line: "ba", word: "ba", context: above) == ["back"])
        #expect(Completion.matches(line: "mo", word: "mo", context: above).isEmpty, "no more on a post")
        // Pins and muted conversations, on a list and on a post.
        #expect(complete("pi", "pi") == ["pin"] && complete("unp", "unp") == ["unpin"])
        #expect(complete("mute-", "mute-") == ["mute-thread"] && complete("unmute-", "unmute-") == ["unmute-thread"])
        #expect(Completion.matches(line: "mute-", word: "mute-", context: above) == ["mute-thread"])
        #expect(CommandParser.parse("pin 3") == .success(.set(.pin, true, row: 3)) && CommandParser.parse("unpin") == .success(.set(.pin, false, row: nil)))
        #expect(CommandParser.parse("mute-thread 2") == .success(.set(.muteThread, true, row: 2)))
        #expect(CommandParser.parse("unmute-thread") == .success(.set(.muteThread, false, row: nil)))
        #expect(Command.set(.muteThread, true, row: 2).text == "mute-thread 2" && Command.set(.pin, false, row: nil).text == "unpin")
    }

    @Test("help groups a screen's commands by kind — reading, writing, people, lists and tags, session — one line of usages each, short enough for a 40-row terminal; back only above the bottom")
    func help() {
        let lines = HelpText.lines(topic: nil, screen: .list, atBottom: true, title: "home", traits: [.posts, .newer])
        #expect(lines.count <= 30, "\(lines.count) lines:\n\(lines.joined(separator: "\n"))")
        let bottom = lines.joined(separator: "\n")
        #expect(bottom.hasPrefix("Commands on home by kind"))
        // Each group once, in order, writing second.
        let starts = CommandGroup.allCases.map { group in lines.firstIndex { $0.hasPrefix(group.title + ": ") } }
        #expect(starts.allSatisfy { $0 != nil } && starts.compactMap { $0 } == starts.compactMap { $0 }.sorted(), "\(starts)")
        for spec in CommandTable.commands(on: .list, atBottom: true, traits: [.posts, .newer]) {
            let line = lines.firstIndex { $0.hasPrefix(spec.group.title + ": ") } ?? 0
            let next = lines[(line + 1)...].firstIndex { !$0.hasPrefix("  ") } ?? lines.count
            let listed = lines[line..<next].joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(listed.contains(spec.usage), "\(spec.name) under \(spec.group.title)")
        }
        #expect(!bottom.contains("back") && !bottom.contains(" top"))
        // Commands that do nothing on home are not listed there.
        for word in ["accept N", "reject N", "remove N"] { #expect(!bottom.contains(word), "\(word) on home") }
        let requests = HelpText.lines(topic: nil, screen: .list, atBottom: false, title: "requests", traits: [.accounts, .requests]).joined(separator: "\n")
        #expect(requests.contains("accept N") && requests.contains("reject N"))
        #expect(!requests.contains("fav N") && !requests.contains("gap N"), "nothing on a requests screen is a post or a gap")
        let above = HelpText.lines(topic: nil, screen: .list, atBottom: false).joined(separator: "\n")
        #expect(above.contains("back") && above.contains("top"))
        let post = HelpText.lines(topic: nil, screen: .post, atBottom: false).joined(separator: "\n")
        #expect(!post.contains("more,"))
        #expect(post.contains("fav,"))
        #expect(HelpText.lines(topic: .gap, screen: .list).first == "gap N")
        #expect(HelpText.lines(topic: .more, screen: .post).last?.contains("Works on a list, not here") == true)
        #expect(HelpText.lines(topic: .retry, screen: .list).joined(separator: " ").contains("queued until the server"))
        #expect(HelpText.lines(topic: .accept, screen: .list, traits: [.posts]).last?.contains("Nothing on this screen for it to act on") == true)
    }

    @Test("help writing lists what Feedline writes, in order, each with what it does; help KIND takes the kind's words")
    func helpGroup() {
        let writing = HelpText.lines(group: .writing, screen: .list, title: "home", traits: [.posts, .newer])
        #expect(writing.first == "Writing on home:")
        // Each command's line starts two columns in; its summary's further lines further.
        let words = writing.dropFirst().filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Array(words.prefix(9)) == ["post", "reply", "quote-post", "edit", "delete", "redraft", "history", "vote", "drafts"])
        #expect(CommandParser.parse("help writing") == .success(.helpGroup(.writing)))
        #expect(CommandParser.parse("help Lists and Tags") == .success(.helpGroup(.listsAndTags)))
        #expect(CommandParser.parse("help lists-and-tags") == .success(.helpGroup(.listsAndTags)))
        #expect(CommandParser.parse("help lists") == .success(.help(.lists)), "a command's own name stays its help")
        #expect(Command.helpGroup(.people).text == "help people")
    }

    @Test("help at 40 columns wraps every summary whole: no line is wider, no word is cut", arguments: [20, 40, 80])
    func narrowHelp(_ width: Int) {
        for screen: ScreenKind in [.list, .post] {
            let overview = HelpText.lines(topic: nil, screen: screen, atBottom: false, width: width)
            for line in overview { #expect(TextWidth.width(of: line) <= width, "\(line)") }
            for group in CommandGroup.allCases {
                let lines = HelpText.lines(group: group, screen: screen, atBottom: false, width: width)
                for line in lines { #expect(TextWidth.width(of: line) <= width, "\(line)") }
                #expect(!lines.joined().contains("…"))
                let words = { (text: String) in Set(text.split(whereSeparator: \.isWhitespace).map(String.init)) }
                for spec in CommandTable.commands(on: screen, atBottom: false) where screen == .list && spec.group == group {
                    #expect(words(spec.summary).isSubset(of: words(lines.joined(separator: " "))), "\(spec.name)")
                }
            }
        }
    }
}
