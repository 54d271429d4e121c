// What the loop of drafts asks of the server, and what comes back.

extension Drafts {
    /// An answer to one of the loop's requests.
    enum Reply: Sendable {
        case settings(Result<ComposeSettings, FeedFailure>)
        case answered(DraftID, token: Int, Post)
        case scheduled(DraftID, token: Int, ScheduledPost)
        case checkedScheduled(DraftID, token: Int, found: ScheduledPost?)
        case failed(DraftID, token: Int, FeedFailure)
        case checked(DraftID, token: Int, found: Post?)
        case waited(DraftID, token: Int)
    }

    /// A request the loop makes: the account's settings, or a submission's next step.
    enum Effect: Hashable, Sendable {
        case settings
        case submission(SubmissionRequest)
    }

    /// `effect` asked of `service`: a send (published or scheduled), or a check for a post a
    /// lost answer may have made — on the account's newest posts, or among the scheduled ones.
    /// `nil` for a wait (the loop's other `Feedback` sleeps it).
    nonisolated static func answer(_ effect: Effect, from service: any FeedService) async -> Reply? {
        switch effect {
        case .settings:
            do { return .settings(.success(try await service.composeSettings())) } catch { return .settings(.failure(FeedFailure(error))) }
        case .submission(.send(let id, let token, let key, let draft)) where draft.isScheduled:
            do { return .scheduled(id, token: token, try await service.schedule(draft, idempotencyKey: key)) } catch {
                return .failed(id, token: token, FeedFailure(error))
            }
        case .submission(.check(let id, let token, _, let draft)) where draft.isScheduled:
            // A scheduled post is not on the account's timeline: look for it among the scheduled ones.
            do {
                let page = try await service.scheduledPosts(after: nil)
                return .checkedScheduled(id, token: token, found: page.items.first { Submission(draft: draft).matches($0) })
            } catch {
                return .failed(id, token: token, FeedFailure(error))
            }
        case .submission(.send(let id, let token, let key, let draft)):
            do { return .answered(id, token: token, try await service.publish(draft, idempotencyKey: key)) } catch {
                return .failed(id, token: token, FeedFailure(error))
            }
        case .submission(.check(let id, let token, let since, let draft)):
            do {
                let settings = try await service.composeSettings()
                let page = try await service.page(of: .account(AccountID(settings.account.id)), after: nil)
                let probe = Submission(draft: draft)
                return .checked(id, token: token, found: page.items.first { $0.author.id == settings.account.id && probe.matches($0, since: since) })
            } catch {
                return .failed(id, token: token, FeedFailure(error))
            }
        case .submission(.wait):
            return nil
        }
    }
}
