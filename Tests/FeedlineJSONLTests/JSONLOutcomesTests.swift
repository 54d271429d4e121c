import Feedline
import FeedlineJSONL
import Foundation
import Testing

/// The `outcome` message through the driver: every change asked is answered by one, with the id
/// of the command that asked it, before the messages that show what it changed.
@MainActor
@Suite("JSON-lines outcomes", .timeLimit(.minutes(10)))
struct JSONLOutcomesTests {
    @Test("a domain block the server makes is answered by an outcome with the command's id, before the domainBlock that settles it")
    func done() async throws {
        let client = DriverClient(DomainBlocksServer.make(), now: DomainBlocksServer.now, hearsOutcomes: true)
        await client.start()
        await client.send(#"{"cmd":"blockDomain","domain":"Promo.Example","id":"b"}"#)
        #expect(await client.wait() == [
            #"{"type":"outcome","id":"b","subject":{"change":"domainBlock","domain":"promo.example","value":true},"result":"done","sentence":null}"#,
            domainBlockLine("promo.example", blocked: true),
        ])
        await client.send(#"{"cmd":"unblockDomain","domain":"promo.example"}"#)
        #expect(await client.wait() == [
            #"{"type":"outcome","id":null,"subject":{"change":"domainBlock","domain":"promo.example","value":false},"result":"done","sentence":null}"#,
            domainBlockLine("promo.example", blocked: false),
        ], "a command without an id: null")
    }

    @Test("a favourite answered while quit waits for it is heard: its outcome comes after quit's ok, before bye, and nothing else does")
    func answeredWhileQuitting() async throws {
        let server = DomainBlocksServer.make()
        server.hold(.interaction)
        let client = DriverClient(server, now: DomainBlocksServer.now, hearsOutcomes: true)
        await client.start()
        await client.send(#"{"cmd":"favourite","post":"a1","id":"f"}"#)
        await server.waitForHeld(1)
        let ok = #"{"type":"ok","cmd":"quit","id":"q"}"#
        let quitting = Task { await client.send(#"{"cmd":"quit","id":"q"}"#) }
        // quit has written its ok and waits (on a retry clock that never moves) for the favourite.
        while !client.lines.contains(ok) { await Task.yield() }
        #expect(server.answerHeld(at: 0))
        let end = await quitting.value
        #expect(end == [
            ok,
            #"{"type":"outcome","id":"f","subject":{"change":"favourite","post":"a1","value":true},"result":"done","sentence":null}"#,
            #"{"type":"bye","unsent":[],"kept":false}"#,
        ])
    }

    @Test("a refusal is an outcome with the server's sentence, before the rows come back and the failure shows; a block asked by a row has no asker")
    func refused() async throws {
        let client = DriverClient(DomainBlocksServer.make(refusing: ["promo.example"]), now: DomainBlocksServer.now, hearsOutcomes: true)
        await client.start()
        await client.send(#"{"cmd":"blockDomain","row":"post:w1","id":"r"}"#)
        let failure = "Could not block the domain promo.example: \(DomainBlocksServer.refusal)"
        #expect(JSONLDomainBlocksDriverTests.outline(await client.wait()) == [
            "outcome",
            #"screen 0: deleted [] inserted ["post:b1", "post:w1"] updated []"#,
            domainBlockLine("promo.example", blocked: false, failure: failure),
        ])
        #expect(client.outcomes == [
            #"{"type":"outcome","id":null,"subject":{"change":"domainBlock","domain":"promo.example","value":true},"result":"refused","sentence":"\#(DomainBlocksServer.refusal)"}"#
        ])
    }

    @Test("a queued outcome says why and when it is sent again; a vote names its choices from 1, as the command takes them")
    func payloads() throws {
        let outcome = Outcome.queued(.interaction(.favourite, true, post: "7"), reason: "The connection was lost.", resendAfter: .seconds(4))
        #expect(JSONLMessage.outcome(outcome, id: nil).json
            == #"{"type":"outcome","id":null,"subject":{"change":"favourite","post":"7","value":true},"result":"queued","sentence":"The connection was lost.","retryIn":4}"#)
        let vote = Outcome.refused(.vote(post: "7", choices: [0, 2]), sentence: "The poll has ended.")
        #expect(JSONLMessage.outcome(vote, id: 3).json
            == #"{"type":"outcome","id":3,"subject":{"change":"vote","post":"7","choices":[1,3]},"result":"refused","sentence":"The poll has ended."}"#)
    }

    @Test("delete of one's own post through the driver: the outcome with the command's id comes before deleted and ok")
    func deleteThroughTheDriver() async throws {
        let client = try WritingClient(fixtures: "timeline", hearsOutcomes: true)
        await client.start()
        let own = "117653768537262858"
        let reply = await client.send(#"{"cmd":"delete","post":"\#(own)","id":"d"}"#)
        let kinds = reply.map { WritingClient.object($0)["type"] as? String ?? "?" }
        #expect(Array(kinds.drop { $0 != "outcome" }) == ["outcome", "deleted", "ok"], "\(kinds)")
        #expect(reply.contains(#"{"type":"outcome","id":"d","subject":{"change":"delete","post":"\#(own)"},"result":"done","sentence":null}"#))
        #expect(client.outcomes.count == 1)
    }
}
