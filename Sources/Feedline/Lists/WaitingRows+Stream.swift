extension WaitingRows {
    // MARK: - Transitions: what the stream did

    /// A row arrived that the list does not show (streamed, or restored newer than the reading
    /// position): it waits on top, as the newest arrival. A post that waits already keeps its
    /// place and arrival and takes the new copy; a notification group that waits already (it
    /// grew) moves up as a new arrival. A gap row is ignored.
    ///
    /// At most ``limit`` rows wait: past it the oldest waiting row is let go (it stops waiting,
    /// ``letGo`` counts it) and posts may be missing below what waits, so showing them leaves a
    /// gap row there and a refresh loads what was let go — a stream flooding posts costs a
    /// bounded amount of memory, never one row per post it sends.
    ///
    /// - Complexity: O(1), plus the array shift of an insertion on top.
    package mutating func arrived(_ row: ListRow, nextToken: Int) -> Change {
        guard row.gap == nil else { return Change() }
        var change = Change()
        if let index = rows.index(of: row.id) {
            if row.post != nil {
                rows.replace(at: index, with: row)
                return change
            }
            change.stopped.append(rows[index])
            rows.remove(at: [index])
        }
        rows.insert([row], at: 0)
        change.started.append(row)
        arrivals += 1
        arrivedAt[row.id] = arrivals
        if rows.count > Self.limit {
            if !mayMiss { letGo = 0 }
            while rows.count > Self.limit, let oldest = rows.last {
                rows.remove(at: [rows.count - 1])
                arrivedAt[oldest.id] = nil
                change.stopped.append(oldest)
                letGo += 1
            }
            postsMayBeMissing(nextToken: nextToken)
        }
        return change
    }

    /// The stream dropped. What it sends from the reconnect on may not follow what waits now:
    /// ``missedSince`` marks the arrivals so far. Dropped again before the last drop was
    /// caught up, after rows came in between: posts missed twice would belong among what waits,
    /// so every waiting row stops waiting (a catch-up asks for them again) and posts may be
    /// missing from the request with `nextToken` on.
    package mutating func interrupted(nextToken: Int) -> Change {
        var change = Change()
        if let mark = missedSince, arrivals > mark.arrivals {
            change.stopped = Array(rows)
            rows.removeAll()
            arrivedAt.removeAll()
            postsMayBeMissing(nextToken: nextToken)
        }
        missedSince = MissedMark(arrivals: arrivals, token: nil)
        return change
    }

    /// A catch-up was asked for (the stream reconnected, a poll is due, or a first connection):
    /// posts may be missing between what waits now (or waited when the stream dropped) and what
    /// arrives from now on; only a request with `nextToken` or later covers them.
    package mutating func catchUpAsked(nextToken: Int) {
        var mark = missedSince ?? MissedMark(arrivals: arrivals, token: nil)
        mark.token = nextToken
        missedSince = mark
    }

    // MARK: - Queries

    /// The waiting row a catch-up asks above: the newest one — after a drop, the newest one that
    /// waited before it (what arrived since is newer than what the stream missed). `nil` when
    /// none fits: the catch-up asks above the list's top row.
    package var catchUpAnchor: ListRow? {
        guard let mark = missedSince else { return rows.first }
        return rows.first { (arrivedAt[$0.id] ?? 0) <= mark.arrivals }
    }
}
