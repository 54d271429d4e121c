import Feedline
import Foundation

/// What the sandbox throws. Every case reads as one sentence through `LocalizedError`.
public enum SandboxError: Error, LocalizedError, Hashable, Sendable {
    /// No status has this id: "Record not found", as Mastodon says.
    case notFound(PostID)
    /// The cursor names no post of the timeline.
    case unknownCursor(PageCursor)
    /// Page sizes are 1…40, as on Mastodon.
    case invalidPageSize(Int)
    /// The scenario cannot be used; the text names the field (see ``SandboxScenario/problem``).
    case invalidScenario(String)
    /// Two statuses given to the sandbox share an id.
    case duplicateStatus(String)
    /// The scenario made this request fail.
    case fault(SandboxScenario.Failure, request: SandboxScenario.Request)

    /// One sentence a user can read; see each case.
    public var errorDescription: String? {
        switch self {
        case .notFound: "Record not found"
        case .unknownCursor(let cursor): "No page of the timeline starts after post \(cursor.rawValue)."
        case .invalidPageSize(let size): "The page size must be between 1 and \(SandboxService.maximumPageSize), not \(size)."
        case .invalidScenario(let problem): "The sandbox scenario is invalid: \(problem)."
        case .duplicateStatus(let id): "Status \(id) was given to the sandbox more than once."
        case .fault(let failure, _): failure.message
        }
    }
}
