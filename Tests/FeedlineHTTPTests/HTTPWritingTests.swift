@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import Foundation
import Testing

/// Posting over HTTP: the idempotency key across attempts, the JSON body, refusals, and what a
/// composer loads first — each checked on what the server received.
@MainActor
@Suite("HTTP writing")
struct HTTPWritingTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)
    static let me = Mastodon.Account(
        id: "109348023875623790", username: "ada", acct: "ada", displayName: "Ada Lovelace",
        url: "https://example.social/@ada", followersCount: 12, followingCount: 34, statusesCount: 56
    )

    /// The status the server answers a post with.
    static func status(_ id: String, _ text: String, visibility: Mastodon.Visibility = .public, inReplyTo: String? = nil) -> Mastodon.Status {
        Mastodon.Status(
            id: id, uri: "https://example.social/users/ada/statuses/\(id)", url: "https://example.social/@ada/\(id)",
            createdAt: now, account: me, content: "<p>\(text)</p>", visibility: visibility, inReplyToID: inReplyTo
        )
    }

    /// Serves what ``MastodonHTTPService/composeSettings()`` asks for, with Mastodon's answers.
    static func serveComposeSettings(
        _ fake: HTTPWritingServer, visibility: String = "public", maxCharacters: Int = 500, reservedPerURL: Int = 23
    ) {
        fake.always("GET", "/api/v1/accounts/verify_credentials", .json(me))
        fake.always(
            "GET", "/api/v1/preferences",
            HTTPWritingServer.Answer(
                status: 200,
                body: """
                    {"posting:default:visibility":"\(visibility)","posting:default:sensitive":false,\
                    "posting:default:language":null,"reading:expand:media":"default","reading:expand:spoilers":false}
                    """
            )
        )
        fake.always(
            "GET", "/api/v2/instance",
            HTTPWritingServer.Answer(
                status: 200,
                body: """
                    {"domain":"example.social","title":"Example","version":"4.3.2",\
                    "configuration":{"urls":{"streaming":"wss://example.social"},\
                    "statuses":{"max_characters":\(maxCharacters),"max_media_attachments":4,"characters_reserved_per_url":\(reservedPerURL)},\
                    "polls":{"max_options":4,"max_characters_per_option":50,"min_expiration":300,"max_expiration":2629746}}}
                    """
            )
        )
    }

    /// A session on the HTTP service whose queued submissions are sent again only by a retry
    /// (the retry clock never moves).
    static func makeSession(_ server: MastodonServer) throws -> FeedSession {
        FeedSession(service: try makeService(server), clock: .fixed(now), retryClock: ManualClock())
    }

    @Test("the idempotency key is the same on every attempt of one submission")
    func sameKeyOnEveryAttempt() async throws {
        try await withWritingServer { fake, server in
            Self.serveComposeSettings(fake)
            fake.enqueue("POST", "/api/v1/statuses", .error(503, "Service Unavailable"))
            fake.enqueue("POST", "/api/v1/statuses", .json(Self.status("110000000000000001", "first post")))
            fake.enqueue("POST", "/api/v1/statuses", .json(Self.status("110000000000000002", "second post")))
            let session = try Self.makeSession(server)

            let first = session.drafts.startPost()
            #expect(session.drafts.update(first) { $0.text = "first post" })
            #expect(session.drafts.send(first).isEmpty)
            await session.settle()
            // The 503 queues the submission with its key; nothing was refused.
            let queued = try #require(session.drafts[first])
            guard case .queued(_, let attempt, _) = queued.phase else {
                Issue.record("a 503 queues the submission, got \(queued.phase)")
                return
            }
            #expect(attempt == 1)
            #expect(queued.refusal == nil)
            #expect(fake.requests("POST", "/api/v1/statuses").count == 1)

            #expect(session.drafts.retry() == 1)
            await session.settle()
            #expect(session.drafts[first] == nil, "a sent submission leaves the drafts")
            #expect(session.drafts.all.isEmpty)
            let posted = try #require(session.store.post(PostID("110000000000000001")), "the session shows the post the server made")
            #expect(posted.text == "first post")
            #expect(posted.author.handle == "ada")

            let attempts = fake.requests("POST", "/api/v1/statuses")
            try #require(attempts.count == 2, "\(fake.requests)")
            let key = try #require(attempts[0].header("Idempotency-Key"))
            #expect(!key.isEmpty)
            #expect(attempts[1].header("Idempotency-Key") == key, "the retry carries the first attempt's key")
            #expect(attempts.allSatisfy { $0.header("Authorization") == "Bearer \(secretToken)" })
            #expect(attempts.allSatisfy { $0.json()?["status"] as? String == "first post" })

            // Another submission is another post: another key.
            let second = session.drafts.startPost()
            session.drafts.update(second) { $0.text = "second post" }
            #expect(session.drafts.send(second).isEmpty)
            await session.settle()
            #expect(session.drafts.all.isEmpty)
            #expect(session.store.post(PostID("110000000000000002")) != nil)
            let all = fake.requests("POST", "/api/v1/statuses")
            try #require(all.count == 3, "\(fake.requests)")
            let secondKey = try #require(all[2].header("Idempotency-Key"))
            #expect(!secondKey.isEmpty)
            #expect(secondKey != key)
        }
    }

    @Test("the JSON body leaves out what the draft does not set")
    func bodyLeavesOutUnset() async throws {
        try await withWritingServer { fake, server in
            fake.enqueue("POST", "/api/v1/statuses", .json(Self.status("110000000000000010", "plain")))
            fake.enqueue(
                "POST", "/api/v1/statuses",
                .json(Self.status("110000000000000011", "a reply", visibility: .unlisted, inReplyTo: "109999999999999999"))
            )
            let service = try makeService(server)

            let plain = Draft(id: DraftID("1"), text: "plain", createdAt: Self.now)
            let made = try await service.publish(plain, idempotencyKey: "key-plain")
            #expect(made.id == PostID("110000000000000010"))
            let reply = Draft(
                id: DraftID("2"), text: "a reply", contentWarning: "spoilers", visibility: .unlisted,
                inReplyTo: PostID("109999999999999999"), createdAt: Self.now
            )
            let replied = try await service.publish(reply, idempotencyKey: "key-reply")
            #expect(replied.inReplyToID == PostID("109999999999999999"))

            let sent = fake.requests("POST", "/api/v1/statuses")
            try #require(sent.count == 2, "\(fake.requests)")
            #expect(sent.allSatisfy { $0.header("Content-Type")?.hasPrefix("application/json") == true })
            #expect(sent.map { $0.header("Idempotency-Key") } == ["key-plain", "key-reply"])

            let plainBody = try #require(sent[0].json(), "\(String(decoding: sent[0].body, as: UTF8.self))")
            #expect(Set(plainBody.keys) == ["status", "visibility"])
            #expect(plainBody["status"] as? String == "plain")
            #expect(plainBody["visibility"] as? String == "public")
            for absent in ["spoiler_text", "in_reply_to_id", "poll", "language", "sensitive", "media_ids"] {
                #expect(plainBody[absent] == nil, "\(absent) is left out, not sent as null")
            }

            let replyBody = try #require(sent[1].json(), "\(String(decoding: sent[1].body, as: UTF8.self))")
            #expect(Set(replyBody.keys) == ["status", "visibility", "in_reply_to_id", "spoiler_text"])
            #expect(replyBody["in_reply_to_id"] as? String == "109999999999999999")
            #expect(replyBody["spoiler_text"] as? String == "spoilers")
            #expect(replyBody["visibility"] as? String == "unlisted")
            #expect(replyBody["poll"] == nil && replyBody["language"] == nil)

            // What went over the wire is the service's own body, byte for byte.
            #expect(sent[0].body == (try MastodonHTTPService.statusBody(plain)))
            #expect(sent[1].body == (try MastodonHTTPService.statusBody(reply)))
            // A content warning of blanks is none.
            let blank = Draft(id: DraftID("3"), text: "x", contentWarning: "  ", createdAt: Self.now)
            let blankBody = try #require(
                try JSONSerialization.jsonObject(with: MastodonHTTPService.statusBody(blank)) as? [String: Any]
            )
            #expect(blankBody["spoiler_text"] == nil)
        }
    }

    @Test("an edit PUTs to the post's address without a key, visibility or reply target, and names everything it keeps")
    func editIsPut() async throws {
        try await withWritingServer { fake, server in
            fake.enqueue("PUT", "/api/v1/statuses/110000000000000020", .json(Self.status("110000000000000020", "edited")))
            let service = try makeService(server)
            let edit = Draft(
                id: DraftID("1"), text: "edited", visibility: .direct, media: [Draft.MediaDraft(file: "", existingID: "m1")],
                inReplyTo: PostID("109999999999999999"), editing: PostID("110000000000000020"), createdAt: Self.now
            )
            let post = try await service.publish(edit, idempotencyKey: "unused")
            #expect(post.id == PostID("110000000000000020"))
            let sent = try #require(fake.requests.only, "\(fake.requests)")
            #expect(sent.route == "PUT /api/v1/statuses/110000000000000020")
            #expect(sent.header("Idempotency-Key") == nil)
            let body = try #require(sent.json())
            // Mastodon's update takes an absent warning, sensitivity or media list as "remove it".
            #expect(Set(body.keys) == ["status", "spoiler_text", "sensitive", "media_ids"])
            #expect(body["status"] as? String == "edited")
            #expect(body["spoiler_text"] as? String == "")
            #expect(body["sensitive"] as? Bool == false)
            #expect(body["media_ids"] as? [String] == ["m1"])
        }
    }

    @Test("a quote post sends quoted_status_id and who may quote it as quote_approval_policy; an edit may change the policy, never the quote")
    func quoteBody() async throws {
        try await withWritingServer { fake, server in
            fake.enqueue("POST", "/api/v1/statuses", .json(Self.status("110000000000000030", "look")))
            fake.enqueue("PUT", "/api/v1/statuses/110000000000000030", .json(Self.status("110000000000000030", "look again")))
            let service = try makeService(server)
            let quote = Draft(
                id: DraftID("1"), text: "look", quoting: PostID("109999999999999990"), quotePolicy: .followers, createdAt: Self.now
            )
            _ = try await service.publish(quote, idempotencyKey: "key-quote")
            let edit = Draft(
                id: DraftID("2"), text: "look again", editing: PostID("110000000000000030"), quoting: PostID("109999999999999990"),
                quotePolicy: .nobody, createdAt: Self.now
            )
            _ = try await service.publish(edit, idempotencyKey: "unused")
            let sent = fake.requests
            try #require(sent.count == 2, "\(sent)")
            let body = try #require(sent[0].json())
            #expect(Set(body.keys) == ["status", "visibility", "quoted_status_id", "quote_approval_policy"])
            #expect(body["quoted_status_id"] as? String == "109999999999999990")
            #expect(body["quote_approval_policy"] as? String == "followers")
            let editBody = try #require(sent[1].json())
            #expect(editBody["quoted_status_id"] == nil, "an edit never changes what the post quotes")
            #expect(editBody["quote_approval_policy"] as? String == "nobody")
        }
    }

    @Test("a 422 returns the draft with the server's sentence")
    func unprocessableReturnsDraft() async throws {
        try await withWritingServer { fake, server in
            Self.serveComposeSettings(fake)
            fake.enqueue(
                "POST", "/api/v1/statuses",
                HTTPWritingServer.Answer(status: 422, body: #"{"error":"Validation failed: Text can't be blank"}"#)
            )
            let session = try Self.makeSession(server)
            let id = session.drafts.startPost()
            session.drafts.update(id) { $0.text = "refused" }
            #expect(session.drafts.send(id).isEmpty)
            await session.settle()

            let submission = try #require(session.drafts[id], "a refused draft stays")
            #expect(submission.phase == .editing)
            #expect(submission.isEditable)
            let refusal = try #require(submission.refusal)
            #expect(refusal.contains("Validation failed: Text can't be blank"), "\(refusal)")
            #expect(submission.key == nil, "a refusal forgets the key: the next send is a new submission")
            #expect(submission.draft.text == "refused", "the text is kept for the user to fix")
            #expect(fake.requests("POST", "/api/v1/statuses").count == 1, "a refusal is not sent again")
            #expect(!session.hasFailures, "a refusal is not queued for a retry")
        }
    }

    @Test("a 403 on a write names feedline login")
    func forbiddenWriteNamesLogin() async throws {
        try await withWritingServer { fake, server in
            Self.serveComposeSettings(fake)
            fake.enqueue("POST", "/api/v1/statuses", .error(403, "This action is not allowed"))
            fake.enqueue("POST", "/api/v1/statuses", .error(403, "This action is not allowed"))
            fake.enqueue("DELETE", "/api/v1/statuses/110000000000000030", .error(403, "This action is not allowed"))

            // Through a session: the draft comes back with the sentence.
            let session = try Self.makeSession(server)
            let id = session.drafts.startPost()
            session.drafts.update(id) { $0.text = "not allowed" }
            #expect(session.drafts.send(id).isEmpty)
            await session.settle()
            let submission = try #require(session.drafts[id])
            #expect(submission.phase == .editing)
            let refusal = try #require(submission.refusal)
            #expect(refusal.contains("feedline login \(server.loginArgument)"), "\(refusal)")
            #expect(refusal.contains("This action is not allowed"), "\(refusal)")
            #expect(!refusal.contains(secretToken))

            // Directly: a post and a delete both become writeRefused.
            let service = try makeService(server)
            let draft = Draft(id: DraftID("9"), text: "not allowed", createdAt: Self.now)
            await #expect(throws: MastodonHTTPError.writeRefused(serverMessage: "This action is not allowed", server: server.loginArgument)) {
                try await service.publish(draft, idempotencyKey: "key")
            }
            let deleteError = await #expect(throws: MastodonHTTPError.self) {
                try await service.delete(PostID("110000000000000030"))
            }
            #expect(deleteError == .writeRefused(serverMessage: "This action is not allowed", server: server.loginArgument))
            #expect(deleteError?.errorDescription?.contains("feedline login \(server.loginArgument)") == true)
            #expect(deleteError?.isTransient == false)
            #expect(fake.requests("DELETE", "/api/v1/statuses/110000000000000030").count == 1)
        }
    }

    @Test("limits come from /api/v2/instance")
    func composeSettings() async throws {
        try await withWritingServer { fake, server in
            Self.serveComposeSettings(fake, visibility: "private", maxCharacters: 1000, reservedPerURL: 30)
            let service = try makeService(server)
            let settings = try await service.composeSettings()
            #expect(settings.limits.maxCharacters == 1000)
            #expect(settings.limits.charactersReservedPerURL == 30)
            #expect(settings.limits.maxMediaAttachments == 4)
            #expect(settings.account.handle == "ada")
            #expect(settings.account.id == Self.me.id)
            #expect(settings.account.displayName == "Ada Lovelace")
            #expect(settings.preferences.visibility == .private)
            #expect(!settings.preferences.sensitive)
            #expect(settings.preferences.language == nil)
            #expect(
                fake.requests.map(\.route) == [
                    "GET /api/v1/accounts/verify_credentials", "GET /api/v1/preferences", "GET /api/v2/instance",
                ]
            )
            #expect(fake.requests.allSatisfy { $0.header("Authorization") == "Bearer \(secretToken)" })
        }
    }

    @Test("a new attachment is uploaded as multipart with its description, waited for while the server processes it (202, then 206), and posted by id")
    func mediaUploadWaitsForProcessing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pond.png")
        try Data("not really a png".utf8).write(to: file)
        try await withWritingServer { fake, server in
            let processing = Mastodon.MediaAttachment(id: "m7", type: .image, url: nil, description: "the pond")
            let done = Mastodon.MediaAttachment(id: "m7", type: .image, url: "https://example.social/m7.png", description: "the pond")
            fake.enqueue("POST", "/api/v2/media", .json(processing, status: 202))
            fake.enqueue("GET", "/api/v1/media/m7", .json(processing, status: 206))
            fake.enqueue("GET", "/api/v1/media/m7", .json(done))
            fake.enqueue("POST", "/api/v1/statuses", .json(Self.status("110000000000000030", "with a photo")))
            let service = try makeService(server)
            let draft = Draft(
                id: DraftID("1"), text: "with a photo", media: [Draft.MediaDraft(file: file.path, description: "the pond")], createdAt: Self.now
            )
            _ = try await service.publish(draft, idempotencyKey: "k1")
            #expect(fake.requests.map(\.route) == ["POST /api/v2/media", "GET /api/v1/media/m7", "GET /api/v1/media/m7", "POST /api/v1/statuses"])
            let upload = try #require(fake.requests.first)
            #expect(upload.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
            let body = String(decoding: upload.body, as: UTF8.self)
            #expect(body.contains("name=\"description\"\r\n\r\nthe pond\r\n"))
            #expect(body.contains("filename=\"pond.png\"\r\nContent-Type: image/png\r\n\r\nnot really a png\r\n"))
            let post = try #require(fake.requests.last?.json())
            #expect(post["media_ids"] as? [String] == ["m7"])
        }
    }

    @Test("a file that cannot be read is refused with a sentence before anything is sent")
    func unreadableAttachment() async throws {
        try await withWritingServer { _, server in
            let service = try makeService(server)
            let draft = Draft(id: DraftID("1"), text: "x", media: [Draft.MediaDraft(file: "/nonexistent/pond.png")], createdAt: Self.now)
            do {
                _ = try await service.publish(draft, idempotencyKey: "k1")
                Issue.record("an unreadable file was posted")
            } catch {
                #expect(FeedFailure(error).message.contains("cannot read the file /nonexistent/pond.png"))
                #expect(!FeedFailure(error).isTransient)
            }
        }
    }
}

extension Collection {
    /// The one element, `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
