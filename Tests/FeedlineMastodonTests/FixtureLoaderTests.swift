@_spi(FeedService) import Feedline
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

@Suite struct FixtureLoaderTests {
    static let status = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a"}}"#
    static let other = #"{"id": "2", "created_at": "2026-11-20T09:16:02.000Z", "account": {"id": "9", "acct": "a"}}"#

    /// The error message of loading a scratch directory holding `files`.
    func message(_ files: [String: String]) throws -> (String, folder: String) {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        for (name, text) in files { try scratch.write(name, text) }
        do {
            _ = try FixtureLoader.load(from: scratch.url)
            return ("loaded", scratch.url.lastPathComponent)
        } catch {
            #expect(FeedFailure(error).message == error.errorDescription)
            return (error.errorDescription ?? "", scratch.url.lastPathComponent)
        }
    }

    @Test func aMissingDirectoryIsNamed() {
        let url = URL(fileURLWithPath: "/nonexistent/feedline/fixtures")
        #expect(throws: FixtureError.missingDirectory("/nonexistent/feedline/fixtures")) { _ = try FixtureLoader.load(from: url) }
        #expect(FixtureError.missingDirectory("x").errorDescription == "The fixture directory x does not exist.")
    }

    @Test func aFileIsNotADirectory() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("a.json", Self.status)
        let file = scratch.url.appendingPathComponent("a.json")
        #expect(throws: FixtureError.notADirectory(file.path)) { _ = try FixtureLoader.load(from: file) }
        #expect(FixtureError.notADirectory("x.json").errorDescription == "The fixture path x.json is a file, not a directory.")
    }

    @Test(arguments: [
        [String: String](),
        ["notes.txt": "hello"],
        ["empty.json": "[]"],
        ["scenario.json": "{}"],
        ["scenario.json": #"{"arrivals": [{"file": "later.json"}]}"#, "later.json": "[\(status)]"],
    ])
    func aDirectoryWithoutStatusesIsAnError(_ files: [String: String]) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        for (name, text) in files { try scratch.write(name, text) }
        // The directory's path as given, not its last component: `--fixtures /tmp` names /tmp.
        #expect(throws: FixtureError.noStatuses(scratch.url.path)) { _ = try FixtureLoader.load(from: scratch.url) }
        let name = scratch.url.lastPathComponent
        let relative = URL(fileURLWithPath: name, relativeTo: scratch.url.deletingLastPathComponent())
        #expect(throws: FixtureError.noStatuses(name)) { _ = try FixtureLoader.load(from: relative) }
        #expect(FixtureError.noStatuses("/tmp").errorDescription == "The fixture directory /tmp holds no statuses.")
    }

    @Test func statusFilesMergeAndHeldBackFilesWait() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("one.json", Self.status)
        try scratch.write("two.json", "[\(Self.other)]")
        try scratch.write("later.json", #"[{"id": "3", "created_at": "2026-11-21T09:15:02.000Z", "account": {"id": "9", "acct": "a"}}]"#)
        try scratch.write("scenario.json", #"{"arrivals": [{"file": "later.json", "after_pages": 2}], "page_size": 1}"#)
        try scratch.write(".hidden.json", "not json at all")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("sub.json"), withIntermediateDirectories: true)
        let fixture = try FixtureLoader.load(from: scratch.url)
        #expect(fixture.statuses.map(\.id) == ["1", "2"])
        #expect(fixture.scenario.arrivals.map(\.afterPages) == [2])
        #expect(fixture.scenario.arrivals.flatMap(\.statuses).map(\.id) == ["3"])
        #expect(fixture.scenario.pageSize == 1)
    }

    @Test func aFileThatIsNotJSONIsNamed() throws {
        let (text, folder) = try message(["good.json": Self.status, "bad.json": "[{\"id\": \"1\",,]"])
        #expect(text == "The fixture file \(folder)/bad.json is not valid JSON.")
        let (empty, emptyFolder) = try message(["empty.json": ""])
        #expect(empty == "The fixture file \(emptyFolder)/empty.json is not valid JSON.")
        let (garbage, garbageFolder) = try message(["garbage.json": "hello"])
        #expect(garbage == "The fixture file \(garbageFolder)/garbage.json is not valid JSON.")
    }

    @Test func aFileOfTheWrongShapeNamesTheCodingPath() throws {
        let broken = #"[\#(Self.status), {"id": "2", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "9", "acct": "a"}, "reblog": {"id": "3", "created_at": "2026-11-20T09:15:02Z", "account": {"id": "8"}}}]"#
        let (text, folder) = try message(["statuses.json": broken])
        #expect(text == "The fixture file \(folder)/statuses.json is not a Mastodon status or an array of them ([1].reblog.account.acct: missing).")
        let (number, numberFolder) = try message(["number.json": "42"])
        #expect(number == "The fixture file \(numberFolder)/number.json is not a Mastodon status or an array of them (expected an object or an array).")
        let (object, objectFolder) = try message(["object.json": #"{"statuses": []}"#])
        #expect(object == "The fixture file \(objectFolder)/object.json is not a Mastodon status or an array of them (id: missing).")
    }

    @Test func aRepeatedStatusIsNamedWithBothFiles() throws {
        let (text, folder) = try message(["a.json": Self.status, "b.json": "[\(Self.other), \(Self.status)]"])
        #expect(text == "The fixture file \(folder)/b.json repeats status 1, already in \(folder)/a.json.")
    }

    @Test(arguments: [
        (#"{"latency": {"default": {"ms": 10}}, "fautls": []}"#,
         "fautls: unknown key (expected one of account, accounts, announcements, arrivals, conversations, custom_emojis, delays, domain_blocks, elsewhere, faults, filters, followed_tags, identities, lagging_counts, latency, latency_seed, lists, notification_policy, notification_requests, notifications, page_size, random_faults, reactions, rules, scheduled_statuses, stream, translations)"),
        (#"{"faults": [{"request": "pages"}]}"#,
         "faults[0].request: unknown request \"pages\" (one of page, newer, post, context, favourite, unfavourite, reblog, unreblog, bookmark, unbookmark, pin, unpin, mute_thread, unmute_thread, notifications, notification_dismiss, account, publish, delete, vote, profile, translate, relationships, follow, unfollow, mute, unmute, block, unblock, accounts, search, authorize, reject, domain_blocks, domain_block, followed_tags, trending_tags, tag_follow, tag, featured_tags, conversations, conversation_read, conversation_remove, lists, list_change, list_membership, report, rules, announcements, announcement_dismiss, filters, filter_change, custom_emojis, scheduled, scheduled_change, notification_policy, notification_policy_change, notification_requests, notification_request_answer, own_profile, profile_change)"),
        (#"{"faults": [{"request": "page", "error": "boom"}]}"#,
         "faults[0].error: unknown error \"boom\" (one of unavailable, timeout, rate_limited, server_error, not_found, forbidden, lost_answer, validation_failed)"),
        (#"{"faults": [{"request": "page", "times": 0}]}"#, "faults[0].times must be at least 1, not 0"),
        (#"{"faults": [{"request": "post", "max_id": "5"}]}"#, "faults[0].max_id only applies to page requests"),
        (#"{"latency": {"default": {"min_ms": 400, "max_ms": 150}}}"#, "latency.default: min_ms is greater than max_ms"),
        (#"{"latency": {"page": {"min_ms": 100}}}"#, "latency.page: give either ms, or both min_ms and max_ms"),
        (#"{"latency": {"pages": {"ms": 100}}}"#,
         "latency.pages: unknown request (one of account, accounts, announcement_dismiss, announcements, authorize, block, bookmark, context, conversation_read, conversation_remove, conversations, custom_emojis, default, delete, domain_block, domain_blocks, favourite, featured_tags, filter_change, filters, follow, followed_tags, list_change, list_membership, lists, mute, mute_thread, newer, notification_dismiss, notification_policy, notification_policy_change, notification_request_answer, notification_requests, notifications, own_profile, page, pin, post, profile, profile_change, publish, reblog, reject, relationships, report, rules, scheduled, scheduled_change, search, tag, tag_follow, translate, trending_tags, unblock, unbookmark, unfavourite, unfollow, unmute, unmute_thread, unpin, unreblog, vote)"),
        (#"{"latency": {"default": {"ms": -1}}}"#, "latency.default must not be negative"),
        (#"{"delays": [{"request": "page"}]}"#, "delays[0].ms: missing"),
        (#"{"random_faults": {"probability": 2, "seed": 1}}"#, "random_faults.probability must be between 0 and 1, not 2.0"),
        (#"{"random_faults": {"seed": 1}}"#, "random_faults.probability: missing"),
        (#"{"page_size": 41}"#, "page_size must be between 1 and 40, not 41"),
        (#"{"domain_blocks": ["promo example"]}"#, "domain_blocks[0]: \"promo example\" is not a domain name"),
        (#"{"domain_blocks": ["promo.example", "@Sandbox.Example"]}"#, "domain_blocks[1]: sandbox.example is the sandbox's own domain"),
        (##"{"followed_tags": ["#birds", "bird watching"]}"##, "followed_tags[1]: \"bird watching\" is not a hashtag name (letters, digits and underscores)"),
        (#"{"followed_tags": "birds"}"#, "followed_tags: expected an array, found a string"),
        (#"{"page_size": "twenty"}"#, "page_size: expected a number, found a string"),
        (#"{"arrivals": [{"file": "missing.json"}]}"#, "arrivals: no file missing.json in FOLDER"),
        (#"{"arrivals": [{"file": "later.json", "after_pages": 0}]}"#, "arrivals[0].after_pages must be at least 1, not 0"),
        (#"["not", "an", "object"]"#, "expected an object, found an array"),
        (#"{"reactions": [{"type": "like", "account": "a", "post": "1", "at": "2026-11-21T09:15:02Z"}]}"#,
         "reactions[0].type: unknown type \"like\" (one of favourite, reblog, follow)"),
        (#"{"reactions": [{"type": "favourite", "account": "a", "at": "2026-11-21T09:15:02Z"}]}"#, "reactions[0].post is required for a favourite"),
        (#"{"reactions": [{"type": "follow", "account": "a", "post": "1", "at": "2026-11-21T09:15:02Z"}]}"#,
         "reactions[0].post does not apply to a follow"),
        (#"{"reactions": [{"type": "follow", "account": "a", "at": "yesterday"}]}"#, "reactions[0].at: \"yesterday\" is not an ISO 8601 date"),
        (#"{"reactions": [{"type": "follow", "account": "a", "at": "2026-11-21T09:15:02Z", "after_pages": 0}]}"#,
         "reactions[0].after_pages must be at least 1, not 0"),
        (#"{"reactions": [{"type": "follow", "at": "2026-11-21T09:15:02Z"}]}"#, "reactions[0].account: missing"),
    ])
    func aBadScenarioIsNamedWithItsProblem(_ scenario: String, _ problem: String) throws {
        let (text, folder) = try message([
            "statuses.json": Self.status, "scenario.json": scenario,
            "later.json": #"[{"id": "7", "created_at": "2026-11-21T09:15:02Z", "account": {"id": "9", "acct": "a"}}]"#,
        ])
        let expected = problem.replacingOccurrences(of: "FOLDER", with: folder)
        #expect(text == "The scenario file \(folder)/scenario.json is invalid (\(expected)).")
    }

    @Test func aScenarioThatIsNotJSONIsNamed() throws {
        let (text, folder) = try message(["statuses.json": Self.status, "scenario.json": "{latency: 3}"])
        #expect(text == "The fixture file \(folder)/scenario.json is not valid JSON.")
    }

    @Test func aFullScenarioFileLoads() throws {
        let scenario = #"""
            {"page_size": 7, "latency": {"default": {"min_ms": 150, "max_ms": 400}, "favourite": {"ms": 300}}, "latency_seed": 9,
             "faults": [{"request": "page", "occurrence": 2, "times": 2}, {"request": "favourite", "post": "1", "error": "forbidden"}],
             "delays": [{"request": "page", "max_id": "1", "ms": 5000}],
             "random_faults": {"probability": 0.25, "seed": 3, "requests": ["newer"], "error": "timeout"},
             "lagging_counts": true, "account": {"id": "77", "acct": "me", "display_name": "Me"}}
            """#
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("statuses.json", Self.status)
        try scratch.write("scenario.json", scenario)
        let loaded = try FixtureLoader.load(from: scratch.url).scenario
        typealias Match = SandboxScenario.Match
        #expect(
            loaded
                == SandboxScenario(
                    pageSize: 7,
                    latency: [.favourite: .fixed(300)],
                    defaultLatency: SandboxScenario.Latency(milliseconds: 150...400),
                    latencySeed: 9,
                    faults: [.init(Match(.page, occurrence: 2, times: 2)), .init(Match(.favourite, postID: "1"), failure: .forbidden)],
                    delays: [.init(Match(.page, cursor: "1"), extra: .seconds(5))],
                    randomFaults: .init(probability: 0.25, seed: 3, requests: [.newer], failure: .timeout),
                    laggingCounts: true,
                    account: Mastodon.Account(id: "77", username: "me", acct: "me", displayName: "Me")
                )
        )
    }
}
