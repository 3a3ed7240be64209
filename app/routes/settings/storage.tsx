import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ProgressBar } from "~/components/ui/progress-bar";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { formatBytes } from "~/features/files/files.constants";
import { getStorageOverview, type SpaceStorage } from "~/features/files/storage.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/storage";

export const meta: Route.MetaFunction = () => titleMeta("Storage");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return getStorageOverview(serviceContextFor(context), user.id);
}

function percentOf(part: number, whole: number | null): number {
  if (whole === null || whole <= 0) return 0;
  return (part / whole) * 100;
}

function SpaceUsage({ space }: { space: SpaceStorage }) {
  const quota = space.quotaBytes;
  const summary =
    quota === null ? `${formatBytes(space.usedBytes)} used (no limit on your plan)` : `${formatBytes(space.usedBytes)} of ${formatBytes(quota)} used`;
  const base = quota ?? space.usedBytes;
  return (
    <Card data-testid={`storage-space-${space.kind}`}>
      <CardHeader>
        <CardTitle as="h2">{space.kind === "personal" ? "My files" : space.name}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <ProgressBar value={quota === null ? 0 : percentOf(space.usedBytes, quota)} showValue={quota !== null} size="lg" label={summary} />
        <p className="text-sm text-slate-700">
          {space.fileCount.toLocaleString("en-US")} {space.fileCount === 1 ? "file" : "files"}
          {space.fileLimit === null ? "" : ` of ${space.fileLimit.toLocaleString("en-US")} allowed`}
          {" "}(earlier versions, the trash and uploads in progress count too).
        </p>
        <Table caption={`Storage by type in ${space.kind === "personal" ? "My files" : space.name}`} isCaptionHidden>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Type</TableHeaderCell>
              <TableHeaderCell className="w-1/2">{quota === null ? "Share of what you store" : "Share of your storage"}</TableHeaderCell>
              <TableHeaderCell className="text-right">Files</TableHeaderCell>
              <TableHeaderCell className="text-right">Size</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {space.breakdown.map((item) => (
              <TableRow key={item.key} data-testid={`storage-${item.key}`}>
                <TableCell className="font-medium text-slate-900">{item.label}</TableCell>
                <TableCell>
                  <ProgressBar value={percentOf(item.bytes, base)} size="sm" label={<span className="sr-only">{item.label}</span>} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{item.files === null ? "—" : item.files.toLocaleString("en-US")}</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(item.bytes)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

export default function StoragePage({ loaderData }: Route.ComponentProps) {
  const { tierLabel, extraStorageUnits, spaces } = loaderData;
  return (
    <>
      <SettingsHeader
        title="Storage"
        description={
          <>
            What your files use, by type, against what your {tierLabel} plan allows
            {extraStorageUnits > 0 ? ` with ${extraStorageUnits} × Extra storage` : ""}.{" "}
            <Link to="/settings/plan" className="font-medium text-brand-700 underline">
              See your plan
            </Link>{" "}
            to raise it.
          </>
        }
      />
      {spaces.map((space) => (
        <SpaceUsage key={space.spaceId} space={space} />
      ))}
    </>
  );
}
