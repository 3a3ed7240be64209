import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";

type Day = { day: string; views: number; downloads: number };

const WIDTH = 760;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 40 };
const SERIES = [
  { key: "views", label: "Views", color: "#2f5fd0" },
  { key: "downloads", label: "Downloads", color: "#d97706" },
] as const;

/**
 * Views and downloads per day as grouped bars (visx: plain SVG, so the server renders the same
 * picture the browser shows, and it scales with its box through the viewBox). Screen readers get
 * the same numbers from the table the page shows next to it.
 */
export function OpeningsChart({ daily, caption }: { daily: Day[]; caption: string }) {
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const days = scaleBand<string>({ domain: daily.map((day) => day.day), range: [0, innerWidth], padding: 0.2 });
  const series = scaleBand<string>({ domain: SERIES.map((entry) => entry.key), range: [0, days.bandwidth()], padding: 0.1 });
  const max = Math.max(1, ...daily.flatMap((day) => [day.views, day.downloads]));
  const counts = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  // About six date labels whatever the range.
  const every = Math.max(1, Math.ceil(daily.length / 6));
  const labelled = daily.filter((_, index) => index % every === 0).map((day) => day.day);

  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-label={caption} data-testid="openings-chart">
        <Group left={MARGIN.left} top={MARGIN.top}>
          {daily.map((day) => (
            <Group key={day.day} left={days(day.day) ?? 0}>
              {SERIES.map((entry) => {
                const value = day[entry.key];
                const y = counts(value);
                return <Bar key={entry.key} x={series(entry.key) ?? 0} y={y} width={series.bandwidth()} height={Math.max(0, innerHeight - y)} fill={entry.color} />;
              })}
            </Group>
          ))}
          <AxisLeft scale={counts} numTicks={Math.min(5, max)} tickFormat={(value) => String(value)} stroke="#64748b" tickStroke="#64748b" tickLabelProps={{ fill: "#334155", fontSize: 11, textAnchor: "end", dx: -4, dy: 3 }} />
          <AxisBottom
            top={innerHeight}
            scale={days}
            tickValues={labelled}
            tickFormat={(value) => value.slice(5)}
            stroke="#64748b"
            tickStroke="#64748b"
            tickLabelProps={{ fill: "#334155", fontSize: 11, textAnchor: "middle" }}
          />
        </Group>
      </svg>
      <figcaption className="flex flex-wrap items-center gap-4 text-sm text-slate-700">
        {SERIES.map((entry) => (
          <span key={entry.key} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: entry.color }} />
            {entry.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
