import Feedline
import FeedlineJSONL
import Testing

/// `Route` became "a list of a `ListSource`, or a post"; the route objects of protocol 2 did not
/// change: every object a script or a client wrote before still pushes the screen it named, and
/// the `routes` message writes each route as it did.
@Suite("JSON-lines route objects")
struct JSONLRouteFormatTests {
    /// Each route object of protocol 2, as written before the change, and the route it names.
    static let objects: [(String, Route)] = [
        (#"{"route":"feed","feed":"home"}"#, .list(.feed(.home))),
        (#"{"route":"feed","feed":"tag:birds"}"#, .list(.feed(.tag("birds")))),
        (#"{"route":"feed","feed":"list:7"}"#, .list(.feed(.list("7")))),
        (#"{"route":"thread","post":"12"}"#, .list(.thread("12"))),
        (#"{"route":"notifications"}"#, .list(.notifications)),
        (#"{"route":"post","post":"12"}"#, .post("12")),
        (#"{"route":"history","post":"12"}"#, .list(.history("12"))),
        (#"{"route":"accounts","list":"followers:2"}"#, .list(.accounts(.followers("2")))),
        (#"{"route":"accounts","list":"members:3"}"#, .list(.accounts(.members("3")))),
        (#"{"route":"search","query":"tea"}"#, .list(.search("tea"))),
        (#"{"route":"domainBlocks"}"#, .list(.domainBlocks)),
        (#"{"route":"followedTags"}"#, .list(.followedTags)),
        (#"{"route":"trendingTags"}"#, .list(.trendingTags)),
        (#"{"route":"conversations"}"#, .list(.conversations)),
        (#"{"route":"lists"}"#, .list(.userLists)),
    ]

    @Test("every route object of protocol 2 pushes the route it named, and is written back as it was")
    func objectsOfProtocol2() throws {
        for (object, route) in Self.objects {
            let line = #"{"cmd":"push","route":"# + object + "}"
            #expect(try JSONLCommand.parse(line).get().action == .push(route), "\(object)")
            #expect(JSONLMessage.routes([route]).json == #"{"type":"routes","routes":["# + object + "]}")
        }
    }

    @Test("a route object of no known kind is refused with a sentence naming the kinds")
    func unknownKind() {
        guard case .failure(let error) = JSONLCommand.parse(#"{"cmd":"push","route":{"route":"list","list":"home"}}"#) else {
            Issue.record("an unknown route kind was accepted")
            return
        }
        #expect(error.message.contains("unknown route \"list\""))
    }

    @Test("a notifications route with kinds pushes the filtered screen, spelled back with the filter's names")
    func notificationKinds() throws {
        let pairs: [(String, Route, String)] = [
            (#"{"route":"notifications","kinds":"mentions"}"#, .list(.notificationsOf([.mention])), #"{"route":"notifications","kinds":"mentions"}"#),
            (#"{"route":"notifications","kinds":"reblogs,Follows"}"#, .list(.notificationsOf([.reblog, .follow])), #"{"route":"notifications","kinds":"follows,boosts"}"#),
            (#"{"route":"notifications","kinds":null}"#, .list(.notifications), #"{"route":"notifications"}"#),
        ]
        for (object, route, written) in pairs {
            #expect(try JSONLCommand.parse(#"{"cmd":"push","route":"# + object + "}").get().action == .push(route), "\(object)")
            #expect(JSONLMessage.routes([route]).json == #"{"type":"routes","routes":["# + written + "]}")
        }
        for bad in [#""likes""#, "3", #""""#] {
            guard case .failure(let error) = JSONLCommand.parse(#"{"cmd":"push","route":{"route":"notifications","kinds":"# + bad + "}}") else {
                Issue.record("kinds \(bad) was accepted")
                continue
            }
            #expect(error.message.contains("mentions, follows, favourites, boosts, polls, edits or requests"), "\(error.message)")
        }
    }
}
