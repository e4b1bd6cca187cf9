/// Draws ``SleepNight``s as a standalone SVG chart: a bar per night of the hours asleep,
/// stacked by stage (deep, core, REM, unspecified asleep, then awake on top), with the
/// time in bed as a pale bar behind the stack, and a legend of the stages present. Each
/// night is labelled by the day it ends (`Tue 4 Jun`, its ``SleepNight/label``), with the year under the first.
package struct SleepChart {
    /// The nights, ascending.
    package var nights: [SleepNight]
    /// The title.
    package var title: String
    /// The line under the title.
    package var subtitle: String

    /// The colour of each stage.
    private static let colors: [SleepNight.Stage: String] = [
        .deep: "#2b3a8f", .core: "#3b7dd8", .rem: "#5ec8e5", .asleep: "#7b9fd6", .awake: "#f19a5a", .inBed: "#d9dde6",
    ]

    /// A chart of `nights`; `clock` names whose clock the nights follow.
    package init(nights: [SleepNight], clock: String = "UTC") {
        self.nights = nights
        title = "SleepAnalysis — hours per night by stage (hours)"
        let samples = nights.reduce(0) { $0 + $1.count }
        subtitle = "\(samples) sample\(samples == 1 ? "" : "s"), nights ending \(nights.first?.label ?? "") to \(nights.last?.label ?? ""), noon to noon in \(clock)"
    }

    /// The SVG document.
    package var svg: String {
        let stacked = SleepNight.Stage.allCases.filter { $0 != .inBed }
        let highest = nights.map { n in Swift.max(stacked.reduce(0) { $0 + (n.seconds[$1] ?? 0) }, n.seconds[.inBed] ?? 0) / 3600 }.max() ?? 1
        let axis = ChartValueAxis(covering: 0, highest, integral: false)
        let frame = ChartFrame(
            values: axis, intervals: nights.map { ($0.start.microseconds, $0.end.microseconds, Int($0.start.offsetMinutes)) },
            marks: ChartTimeAxis.intervalLabels(nights.map(\.label)))
        let f = ChartFrame.f
        var out = frame.opening(title: title, subtitle: subtitle)
        let present = SleepNight.Stage.allCases.filter { stage in nights.contains { ($0.seconds[stage] ?? 0) > 0 } }
        var x = ChartFrame.width - ChartFrame.right - present.reduce(0) { $0 + ChartText.width($1.rawValue, fontSize: 12) + 22 }
        for stage in present {
            defer { x += ChartText.width(stage.rawValue, fontSize: 12) + 22 }
            out += ##"<rect class="legend" x="\##(f(x))" y="36" width="12" height="12" fill="\##(Self.colors[stage]!)"/>"##
            out += ##"<text class="legend" x="\##(f(x + 16))" y="46">\##(stage.rawValue)</text>"## + "\n"
        }
        for night in nights {
            guard let x0 = frame.time.x(night.start.microseconds), let x1 = frame.time.x(night.end.microseconds) else { continue }
            let width = Swift.max(x1 - x0 - (x1 - x0 > 3 ? 1 : 0), 0.8)
            func bar(_ from: Double, _ to: Double, _ stage: SleepNight.Stage) {
                let tip = "\(night.label) \(stage.rawValue): \(Int(((to - from) * 60).rounded())) min"
                out += ##"<rect class="mark" x="\##(f(Swift.max(frame.left, Swift.min(x0, x1 - width))))" y="\##(f(frame.y(to)))" width="\##(f(width))" height="\##(f(frame.y(from) - frame.y(to)))" fill="\##(Self.colors[stage]!)"><title>\##(ChartText.escaped(tip))</title></rect>"## + "\n"
            }
            if let bed = night.seconds[.inBed], bed > 0 { bar(0, bed / 3600, .inBed) }
            var level = 0.0
            for stage in stacked {
                guard let seconds = night.seconds[stage], seconds > 0 else { continue }
                bar(level, level + seconds / 3600, stage)
                level += seconds / 3600
            }
        }
        return out + "</svg>\n"
    }

    /// Writes the SVG document to `path` atomically, mode 0600.
    package func write(to path: String) throws {
        try DurableFile.replace(path, with: Array(svg.utf8))
    }
}
