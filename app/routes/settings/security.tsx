import { Form, useActionData, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { listSessions, revokeOtherSessions, revokeSession } from "~/features/auth/account.server";
import { describeDevice } from "~/features/auth/activity.server";
import { sessionsSignedOutMessage } from "~/features/auth/activity-labels";
import { formatWhen } from "~/features/auth/auth-context.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { FormError } from "~/features/auth/components/auth-layout";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { runFormAction } from "~/lib/action-result.server";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { AppError } from "~/lib/errors";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => titleMeta("Security");

const PAGE = "/settings/security";

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Dates are formatted on the server ("2026-11-21 20:55 UTC") so the server and browser render the same text. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const sessions = await listSessions(authCallFor(context, request), member);
  return {
    sessions: sessions.map((session) => ({
      id: session.id,
      isCurrent: session.isCurrent,
      device: capitalize(describeDevice(session.userAgent)),
      ipAddress: session.ipAddress ?? "Unknown",
      signedInAt: formatWhen(session.createdAt),
      lastActiveAt: formatWhen(session.lastSeenAt),
    })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const member = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const call = authCallFor(context, request);
  return runFormAction(
    async () => {
      switch (intent) {
        case "revoke":
          await revokeSession(call, member, form.get("sessionId"));
          return redirectWithNotice(context, PAGE, { type: "success", message: "Session signed out." });
        case "revoke-others": {
          const ended = await revokeOtherSessions(call, member);
          return redirectWithNotice(context, PAGE, { type: "success", message: sessionsSignedOutMessage(ended) });
        }
        default:
          throw new AppError("VALIDATION_ERROR", "Choose a session to sign out.");
      }
    },
    { intent },
  );
}

export default function SecurityPage({ loaderData }: Route.ComponentProps) {
  const { sessions } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? actionData : null;
  const pending = navigation.state === "submitting" ? navigation.formData : null;
  const hasOthers = sessions.some((session) => !session.isCurrent);

  return (
    <>
      <SettingsHeader
        title="Security"
        description="Where your account is signed in. Sign out any session you don't recognise, then change your password."
      />
      <FormError message={failure?.message} />
      <Table caption="Active sessions">
        <TableHead>
          <TableRow>
            <TableHeaderCell>Device</TableHeaderCell>
            <TableHeaderCell>IP address</TableHeaderCell>
            <TableHeaderCell>Signed in</TableHeaderCell>
            <TableHeaderCell>Last active</TableHeaderCell>
            <TableHeaderCell>
              <span className="sr-only">Actions</span>
            </TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sessions.map((session) => (
            <TableRow key={session.id} data-testid="session-row" data-current={session.isCurrent ? "true" : "false"}>
              <TableHeaderCell scope="row">{session.device}</TableHeaderCell>
              <TableCell>{session.ipAddress}</TableCell>
              <TableCell>{session.signedInAt}</TableCell>
              <TableCell>{session.lastActiveAt}</TableCell>
              <TableCell className="text-right">
                {session.isCurrent ? (
                  <Badge variant="brand">This device</Badge>
                ) : (
                  <Form method="post">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="sessionId" value={session.id} />
                    <Button
                      type="submit"
                      variant="secondary"
                      size="sm"
                      aria-label={`Sign out session ${session.device}`}
                      isLoading={pending?.get("sessionId") === session.id}
                    >
                      Sign out
                    </Button>
                  </Form>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <CsrfInput />
        <input type="hidden" name="intent" value="revoke-others" />
        <Button type="submit" variant="danger" isLoading={pending?.get("intent") === "revoke-others"}>
          Sign out everywhere else
        </Button>
        {!hasOthers ? <p className="text-sm text-slate-600">You are signed in on this device only.</p> : null}
      </Form>
    </>
  );
}
