import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Textarea } from "~/components/ui/textarea";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { IP_RANGES_MAX } from "~/features/datarooms/datarooms.constants";
import { getRoomSecurity, setRoomIpRanges, setRoomProtection, setRoomTwoFactorRequirement } from "~/features/datarooms/security.server";
import { TwoFactorRequirementCard } from "~/features/datarooms/components/two-factor-requirement-card";
import { ProtectionCard } from "~/features/datarooms/components/protection-card";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Security of ${loaderData.room.name}` : "Data room security") }];

/** /dataroom/{id}/security: who may open the room from where (manage_settings; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => {
    const { room, ...security } = await getRoomSecurity(serviceContextFor(context), user.id, params.id);
    return { room: { id: room.id, name: room.name, archived: room.archived }, ...security };
  });
}

/** The protection form as the service's body: percent → fraction, checkboxes → booleans. */
function protectionInput(form: FormData) {
  const on = (name: string) => form.get(name) === "on";
  return {
    watermark: on("watermark")
      ? {
          template: String(form.get("template") ?? ""),
          opacity: form.get("opacity") === "" || form.get("opacity") === null ? Number.NaN : Number(form.get("opacity")) / 100,
          fontSize: String(form.get("fontSize") ?? ""),
          position: String(form.get("position") ?? ""),
        }
      : null,
    downloadProtection: on("downloadProtection"),
    printProtection: on("printProtection"),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  if (form.get("intent") === "two-factor") {
    return runFormAction(
      async () => {
        const saved = await setRoomTwoFactorRequirement(serviceContextFor(context), user.id, params.id, { required: form.get("required") === "on" });
        const message = saved.twoFactorRequired ? "Only sessions that passed a second factor can open the room now." : "Two-factor sign-in is no longer required.";
        return redirectWithNotice(context, `/dataroom/${saved.room.id}/security`, { type: "success", message });
      },
      { intent: "two-factor" },
    );
  }
  if (form.get("intent") === "protection") {
    return runFormAction(
      async () => {
        const saved = await setRoomProtection(serviceContextFor(context), user.id, params.id, protectionInput(form));
        return redirectWithNotice(context, `/dataroom/${saved.room.id}/security`, { type: "success", message: "Protection saved. It applies from the next page anyone opens." });
      },
      { intent: "protection" },
    );
  }
  return runFormAction(
    async () => {
      const saved = await setRoomIpRanges(serviceContextFor(context), user.id, params.id, { ranges: String(form.get("ranges") ?? "") });
      const message = saved.ipRanges.length > 0 ? `Only the ${saved.ipRanges.length} listed address${saved.ipRanges.length === 1 ? "" : "es or ranges"} can open the room now.` : "The room can be opened from anywhere.";
      return redirectWithNotice(context, `/dataroom/${saved.room.id}/security`, { type: "success", message });
    },
    { intent: "ip" },
  );
}

export default function DataroomSecurityPage({ loaderData, actionData }: Route.ComponentProps) {
  const { room, ipRanges, currentIp, available, protection, twoFactorRequired, yourSecondFactor, encryption } = loaderData;
  const navigation = useNavigation();
  const anyFailure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const failure = anyFailure && anyFailure.intent === "ip" ? anyFailure : null;
  const twoFactorFailure = anyFailure && anyFailure.intent === "two-factor" ? anyFailure : null;
  const protectionFailure = anyFailure && anyFailure.intent === "protection" ? anyFailure : null;
  const isSaving = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Security</h1>
        <p className="text-sm text-slate-700">Rules the server applies to every page, file, download and live update of this room, for everyone in it.</p>
      </div>

      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-lg font-semibold text-slate-900">IP restrictions</h2>
          <p className="text-sm text-slate-700">
            Only people connecting from these addresses can open the room (your office network, a VPN). Leave the list empty to allow any address.
            {currentIp ? (
              <>
                {" "}
                You are connecting from <code className="rounded bg-slate-100 px-1">{currentIp}</code>.
              </>
            ) : null}
          </p>
          {!available.ipRestrictions ? (
            <Alert variant="info">IP restrictions are part of the Business plan and above. The room's owner can upgrade to use them.</Alert>
          ) : room.archived ? (
            <Alert variant="info">This data room is archived and read-only. Unarchive it to change its security.</Alert>
          ) : (
            <IntentForm intent="ip" className="space-y-4">
              <Textarea
                label="Allowed addresses and ranges"
                name="ranges"
                rows={5}
                defaultValue={ipRanges.join("\n")}
                description={`One per line: an address (198.51.100.7) or a range (203.0.113.0/24, 2001:db8::/32). At most ${IP_RANGES_MAX}. A list without your own address is refused, so you cannot shut yourself out.`}
                error={failure?.fieldErrors?.ranges?.[0] ?? (failure ? failure.message : undefined)}
              />
              <div className="flex justify-end">
                <Button type="submit" isLoading={isSaving && navigation.formData?.get("intent") === "ip"}>
                  Save IP restrictions
                </Button>
              </div>
            </IntentForm>
          )}
          {ipRanges.length > 0 ? (
            <p className="text-sm text-slate-700" data-testid="ip-status">
              Now: only {ipRanges.join(", ")}.
            </p>
          ) : (
            <p className="text-sm text-slate-700" data-testid="ip-status">
              Now: any address.
            </p>
          )}
        </CardContent>
      </Card>

      <ProtectionCard
        protection={protection}
        available={available}
        isArchived={room.archived}
        isSaving={isSaving && navigation.formData?.get("intent") === "protection"}
        failure={protectionFailure}
      />

      <TwoFactorRequirementCard
        isRequired={twoFactorRequired}
        isAvailable={available.twoFactorRequirement}
        yourSecondFactor={yourSecondFactor}
        isArchived={room.archived}
        isSaving={isSaving && navigation.formData?.get("intent") === "two-factor"}
        failure={twoFactorFailure}
      />

      <Card>
        <CardContent className="space-y-2">
          <h2 className="text-lg font-semibold text-slate-900">Encryption at rest</h2>
          <p className="text-sm text-slate-700" data-testid="encryption-status">
            {encryption.sealsNewFiles
              ? "On. Every file uploaded to this room is encrypted before it is stored, with a key of this room's own (AES-256-GCM). A copy of the storage alone reveals nothing; the application decrypts for the people you let in."
              : "Off: the room owner's plan does not include encryption at rest."}
            {encryption.unsealedFiles > 0
              ? ` ${encryption.unsealedFiles} file${encryption.unsealedFiles === 1 ? " was" : "s were"} uploaded before encryption was available and ${encryption.unsealedFiles === 1 ? "is" : "are"} stored as uploaded; upload ${encryption.unsealedFiles === 1 ? "it" : "them"} again to encrypt ${encryption.unsealedFiles === 1 ? "it" : "them"}.`
              : ""}
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-2">
          <h2 className="text-lg font-semibold text-slate-900">Time-limited access</h2>
          <p className="text-sm text-slate-700">
            {available.timeLimitedAccess ? (
              <>
                Set the last day each person can use the room, or give it with an invitation, on{" "}
                <a href={`/dataroom/${room.id}/users`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  People
                </a>
                . After it, they see only when their access ended.
              </>
            ) : (
              "Access that ends on a chosen day is part of the Basic plan and above."
            )}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
