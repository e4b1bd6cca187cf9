#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A workout route drawn as a small track: the path's shape, north up, on a square,
/// without a map (which would need tiles from outside). Long routes are thinned to at most
/// ``maximumPoints`` points, evenly by index, the first and last kept.
package struct RouteTrack {
    /// The most points drawn.
    package static let maximumPoints = 200
    /// The side of the square, px.
    static let side = 90.0
    /// The points, latitude and longitude in degrees, in order.
    package var points: [(latitude: Double, longitude: Double)]

    /// A track of `points`, thinned.
    package init(points: [(latitude: Double, longitude: Double)]) {
        guard points.count > Self.maximumPoints else {
            self.points = points
            return
        }
        let step = Double(points.count - 1) / Double(Self.maximumPoints - 1)
        self.points = (0..<Self.maximumPoints).map { points[Int((Double($0) * step).rounded())] }
    }

    /// The SVG element: an equirectangular projection scaled to fit, the start marked
    /// green and the end red.
    package var svg: String {
        guard !points.isEmpty else { return "" }
        let meanLatitude = points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        let stretch = Swift.max(cos(meanLatitude * .pi / 180), 0.01)
        let xs = points.map { $0.longitude * stretch }
        let ys = points.map { -$0.latitude }
        let spanX = (xs.max()! - xs.min()!)
        let spanY = (ys.max()! - ys.min()!)
        let margin = 6.0
        let scale = (Self.side - 2 * margin) / Swift.max(spanX, spanY, 1e-9)
        let offsetX = margin + (Self.side - 2 * margin - spanX * scale) / 2 - xs.min()! * scale
        let offsetY = margin + (Self.side - 2 * margin - spanY * scale) / 2 - ys.min()! * scale
        func at(_ k: Int) -> (Double, Double) { (xs[k] * scale + offsetX, ys[k] * scale + offsetY) }
        let f = ChartFrame.f
        let line = points.indices.map { k in let p = at(k); return "\(f(p.0)),\(f(p.1))" }.joined(separator: " ")
        let start = at(0)
        let end = at(points.count - 1)
        var out = ##"<svg class="track" viewBox="0 0 \##(Int(Self.side)) \##(Int(Self.side))" role="img">"##
        out += ##"<rect width="100%" height="100%" fill="#f4f6f9"/>"##
        out += ##"<polyline points="\##(line)" fill="none" stroke="#1f5fa8" stroke-width="1.6" stroke-linejoin="round"/>"##
        out += ##"<circle cx="\##(f(start.0))" cy="\##(f(start.1))" r="3" fill="#2a9d4b"/><circle cx="\##(f(end.0))" cy="\##(f(end.1))" r="3" fill="#d8453b"/>"##
        return out + "</svg>"
    }
}
