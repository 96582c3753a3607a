import Foundation

/// Gives faces their `faceID`s: a face that overlaps one seen in a recent read keeps its
/// number; any other gets a new one, never reused (Apple: "faceIDs are not re-used as faces
/// leave the picture and new ones enter").
struct FaceTracker {
    private struct Track {
        var id: Int
        var bounds: CGRect
        var missed: Int
    }

    /// Reads a face may be missed (a blurred or noisy frame) and keep its number.
    static let patience = 2
    /// The overlap (intersection over union) that makes two bounds one face.
    static let overlap: CGFloat = 0.3

    private var tracks: [Track] = []
    private var nextID = 1

    /// The numbers of this read's faces, by their bounds, in the same order.
    mutating func identify(_ faces: [CGRect]) -> [Int] {
        var ids = [Int](repeating: 0, count: faces.count)
        var pairs: [(score: CGFloat, face: Int, track: Int)] = []
        for (f, bounds) in faces.enumerated() {
            for (t, track) in tracks.enumerated() {
                let score = Self.intersectionOverUnion(bounds, track.bounds)
                if score >= Self.overlap { pairs.append((score, f, t)) }
            }
        }
        // Best overlaps first, each face and track matched once.
        var usedTracks = Set<Int>(), matchedFaces = Set<Int>()
        for pair in pairs.sorted(by: { $0.score > $1.score }) where !usedTracks.contains(pair.track) && !matchedFaces.contains(pair.face) {
            usedTracks.insert(pair.track)
            matchedFaces.insert(pair.face)
            ids[pair.face] = tracks[pair.track].id
            tracks[pair.track].bounds = faces[pair.face]
            tracks[pair.track].missed = 0
        }
        for t in tracks.indices where !usedTracks.contains(t) { tracks[t].missed += 1 }
        tracks.removeAll { $0.missed > Self.patience }
        for f in faces.indices where !matchedFaces.contains(f) {
            ids[f] = nextID
            tracks.append(Track(id: nextID, bounds: faces[f], missed: 0))
            nextID += 1
        }
        return ids
    }

    /// A new run: faces seen before are new faces now (their numbers are not reused).
    mutating func forgetFaces() { tracks.removeAll() }

    static func intersectionOverUnion(_ a: CGRect, _ b: CGRect) -> CGFloat {
        let i = a.intersection(b)
        guard !i.isNull, !i.isEmpty else { return 0 }
        let inter = i.width * i.height
        return inter / (a.width * a.height + b.width * b.height - inter)
    }
}
