import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { builderOptions } from "~/features/workflows/workflow-builder.server";
import { StepKindFields } from "~/features/workflows/components/step-kind-fields";
import { definitionOf, draftStep, ESCALATION_LABELS, FORM_ESCALATION_LABELS, SIGN_ESCALATION_LABELS, MODE_LABELS, ROOM_ROLE_CHOICES, STEP_GROUPS, STEP_KINDS, type DraftStep, type RoomRole, type DraftTrigger, type Escalation, type Mode, type StepKind, type StepWhen, WHEN_LABELS } from "~/features/workflows/workflow-draft";
import { WORKFLOW_NAME_MAX, WORKFLOW_STEPS_MAX } from "~/features/workflows/workflows.schema";
import { createWorkflow } from "~/features/workflows/workflows.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/create";

export const meta: Route.MetaFunction = () => titleMeta("New workflow");

/** /workflows/create (spec §2 "workflows create", Business): what starts the workflow, its ordered steps, who approves. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => builderOptions(serviceContextFor(context), user.id));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    let definition: unknown;
    try {
      definition = JSON.parse(String(form.get("definition") ?? ""));
    } catch {
      throw new AppError("VALIDATION_ERROR", "The workflow could not be read. Reload the page and build it again.");
    }
    const created = await createWorkflow(serviceContextFor(context), user.id, definition);
    return redirectWithNotice(context, `/workflows/${created.id}`, { type: "success", message: `“${created.name}” is ready.` });
  });
}

/** One way a run may start that names its source (a folder, a form, a receive page): a radio, and once chosen, which one. */
function TriggerChoice(props: { label: string; none?: string; isChosen: boolean; onChoose: () => void; pick: string; options: { id: string; label: string }[]; value: string; onPick: (id: string) => void; hint: string }) {
  const isEmpty = props.options.length === 0;
  return (
    <>
      <label className="flex items-center gap-2 text-sm text-slate-900">
        <input type="radio" name="trigger-type" checked={props.isChosen} disabled={isEmpty} onChange={props.onChoose} />
        {props.label}
        {isEmpty && props.none ? ` (${props.none})` : ""}
      </label>
      {props.isChosen ? (
        <label className="block pl-6 text-sm text-slate-900">
          {props.pick}
          <select className={nativeSelectClassName} value={props.value} onChange={(event) => props.onPick(event.target.value)}>
            {props.options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
          <span className="mt-1 block text-xs text-slate-600">{props.hint}</span>
        </label>
      ) : null}
    </>
  );
}

export default function CreateWorkflowPage({ loaderData, actionData }: Route.ComponentProps) {
  const { folders, caseTypes, forms, receivePages } = loaderData;
  const navigation = useNavigation();
  const firstFolder = folders[0]?.id ?? "";
  const ownSpace = folders[0]?.spaceId ?? "";
  const [name, setName] = useState("");
  const [trigger, setTrigger] = useState<DraftTrigger>({ type: "upload", folderId: firstFolder, formId: forms[0]?.id ?? "", pageId: receivePages[0]?.id ?? "", everyDays: "30" });
  const [nextKey, setNextKey] = useState(3);
  const [steps, setSteps] = useState<DraftStep[]>([draftStep(1, "approve", firstFolder, "", "Review"), draftStep(2, "move", firstFolder, "", "File it")]);
  const update = (key: number, change: Partial<DraftStep>) => setSteps((current) => current.map((step) => (step.key === key ? { ...step, ...change } : step)));
  // A workflow works where its trigger folder is, or where its form or page files: the member's own files, or a data room they manage. Its steps' folders and room roles follow.
  const isManagedRoom = (spaceId: string | null | undefined) => folders.some((folder) => folder.spaceId === spaceId && folder.isRoom);
  const deliveredInto = (spaceId: string | null | undefined) => (isManagedRoom(spaceId) ? spaceId! : ownSpace);
  const spaceOf = (next: DraftTrigger) =>
    next.type === "upload" || next.type === "schedule"
      ? (folders.find((folder) => folder.id === next.folderId)?.spaceId ?? ownSpace)
      : next.type === "form"
        ? deliveredInto(forms.find((form) => form.id === next.formId)?.spaceId)
        : next.type === "receive"
          ? deliveredInto(receivePages.find((page) => page.id === next.pageId)?.spaceId)
          : ownSpace;
  const sourceLabel = (source: { title: string; spaceId: string | null }) => (isManagedRoom(source.spaceId) ? `${source.title} (files into a data room)` : source.title);
  const space = spaceOf(trigger);
  const isRoom = folders.some((folder) => folder.spaceId === space && folder.isRoom);
  const stepFolders = folders.filter((folder) => folder.spaceId === space);
  const changeTrigger = (change: Partial<DraftTrigger>) => {
    const next = { ...trigger, ...change };
    const nextSpace = spaceOf(next);
    if (nextSpace !== space) {
      const first = folders.find((folder) => folder.spaceId === nextSpace)?.id ?? "";
      setSteps((current) => current.map((step) => ({ ...step, folderId: first, roles: [] })));
    }
    setTrigger(next);
  };
  const folderLabel = (folder: (typeof folders)[number]) => (folder.isRoom ? `${folder.path} (data room)` : folder.isTeam ? `${folder.path} (team files)` : folder.path);
  const moveStep = (index: number, by: -1 | 1) =>
    setSteps((current) => {
      const next = [...current];
      const [step] = next.splice(index, 1);
      next.splice(index + by, 0, step!);
      return next;
    });
  const addStep = (type: StepKind) => {
    setSteps((current) => [...current, draftStep(nextKey, type, stepFolders[0]?.id ?? "", caseTypes[0]?.id ?? "", undefined, forms[0]?.id ?? "")]);
    setNextKey((key) => key + 1);
  };
  const isSubmitting = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-1">
        <Link to="/workflows" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Workflows
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">New workflow</h1>
        <p className="text-sm text-slate-700">Say what starts it, then the steps in order. Approvers must have a Strongroom account; they need no plan of their own.</p>
      </div>
      {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
      <Form method="post" className="space-y-6">
        <CsrfInput />
        <input type="hidden" name="definition" value={JSON.stringify(definitionOf(name, trigger, steps))} />
        <Input label="Workflow name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={WORKFLOW_NAME_MAX} placeholder="Contract approval" />

        <fieldset className="space-y-3 rounded-md border border-slate-300 bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">What starts a run</legend>
          <TriggerChoice
            label="A file uploaded into a folder"
            isChosen={trigger.type === "upload"}
            onChoose={() => changeTrigger({ type: "upload" })}
            pick="Folder whose new files start a run"
            options={folders.map((folder) => ({ id: folder.id, label: folderLabel(folder) }))}
            value={trigger.folderId}
            onPick={(folderId) => changeTrigger({ folderId })}
            hint="Each file uploaded into this folder itself (not its subfolders) starts one run. In a data room you manage, the workflow works in the room: its steps stay in the room, approvals may go to room roles, and the room's audit log records its runs."
          />
          <TriggerChoice
            label="One of my forms is submitted"
            none="you have no forms yet"
            isChosen={trigger.type === "form"}
            onChoose={() => changeTrigger({ type: "form" })}
            pick="Form whose submissions start a run"
            options={forms.map((form) => ({ id: form.id, label: sourceLabel(form) }))}
            value={trigger.formId}
            onPick={(formId) => changeTrigger({ formId })}
            hint="Each submission starts one run; the files it brought are the run’s documents. Test submissions start nothing. A form filing into a data room you manage makes a workflow of the room, as a room folder does."
          />
          <TriggerChoice
            label="Files arrive through one of my receive pages"
            none="you have no receive pages yet"
            isChosen={trigger.type === "receive"}
            onChoose={() => changeTrigger({ type: "receive" })}
            pick="Receive page whose submissions start a run"
            options={receivePages.map((page) => ({ id: page.id, label: sourceLabel(page) }))}
            value={trigger.pageId}
            onPick={(pageId) => changeTrigger({ pageId })}
            hint="Each submission (everything one person sent at once) starts one run on the files it brought. A page delivering into a data room you manage makes a workflow of the room, as a room folder does."
          />
          <TriggerChoice
            label="On a schedule, for each document in a folder"
            isChosen={trigger.type === "schedule"}
            onChoose={() => changeTrigger({ type: "schedule" })}
            pick="Folder whose documents are reviewed"
            options={folders.map((folder) => ({ id: folder.id, label: folderLabel(folder) }))}
            value={trigger.folderId}
            onPick={(folderId) => changeTrigger({ folderId })}
            hint="At 07:00 UTC on the days it is due, each document in this folder itself starts one run, unless its last run is still going."
          />
          {trigger.type === "schedule" ? (
            <div className="pl-6">
              <Input label="Every (days)" type="number" min={1} max={365} value={trigger.everyDays} onChange={(event) => changeTrigger({ everyDays: event.target.value })} />
            </div>
          ) : null}
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="trigger-type" checked={trigger.type === "envelope"} onChange={() => changeTrigger({ type: "envelope" })} />
            A document I sent for signature is signed by everyone (the run works on the signed copy)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-900">
            <input type="radio" name="trigger-type" checked={trigger.type === "manual"} onChange={() => changeTrigger({ type: "manual" })} />
            By hand, on a document I choose
          </label>
        </fieldset>

        <ol className="space-y-4" aria-label="Steps">
          {steps.map((step, index) => (
            <li key={step.key}>
              <fieldset className="space-y-3 rounded-md border border-slate-300 bg-white p-4" data-testid="workflow-step">
                <legend className="px-1 text-sm font-semibold text-slate-900">
                  Step {index + 1}: {STEP_KINDS[step.type].legend}
                </legend>
                <Input label={`Step ${index + 1} name`} value={step.name} onChange={(event) => update(step.key, { name: event.target.value })} required maxLength={100} />
                {steps.slice(0, index).some(decidesPath) ? (
                  <label className="block text-sm text-slate-900">
                    Step {index + 1} runs
                    <select className={nativeSelectClassName} value={step.when} onChange={(event) => update(step.key, { when: event.target.value as StepWhen })}>
                      {(Object.keys(WHEN_LABELS) as StepWhen[]).map((when) => (
                        <option key={when} value={when}>
                          {WHEN_LABELS[when]}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                {step.type === "approve" ? (
                  <>
                    <Input
                      label={`Step ${index + 1} approvers`}
                      description="E-mail addresses of Strongroom members, separated by commas."
                      value={step.people}
                      onChange={(event) => update(step.key, { people: event.target.value })}
                      placeholder="ada@example.com, grace@example.com"
                    />
                    {isRoom ? (
                      <fieldset className="space-y-1">
                        <legend className="text-sm text-slate-900">Step {index + 1}: also everyone in the room who is</legend>
                        {(Object.keys(ROOM_ROLE_CHOICES) as RoomRole[]).map((role) => (
                          <label key={role} className="mr-4 inline-flex items-center gap-2 text-sm text-slate-900">
                            <input
                              type="checkbox"
                              checked={step.roles.includes(role)}
                              onChange={(event) => update(step.key, { roles: event.target.checked ? [...step.roles, role] : step.roles.filter((entry) => entry !== role) })}
                            />
                            {ROOM_ROLE_CHOICES[role]}
                          </label>
                        ))}
                        <span className="block text-xs text-slate-600">Who has the role when the step starts gets a task. They see the document as the room lets them.</span>
                      </fieldset>
                    ) : null}
                    <label className="block text-sm text-slate-900">
                      Step {index + 1}: who must approve
                      <select className={nativeSelectClassName} value={step.mode} onChange={(event) => update(step.key, { mode: event.target.value as Mode })}>
                        {(Object.keys(MODE_LABELS) as Mode[]).map((mode) => (
                          <option key={mode} value={mode}>
                            {MODE_LABELS[mode]}
                          </option>
                        ))}
                      </select>
                    </label>
                    {step.mode === "quorum" ? <Input label={`Step ${index + 1} quorum (percent)`} type="number" min={1} max={100} value={step.quorumPercent} onChange={(event) => update(step.key, { quorumPercent: event.target.value })} /> : null}
                    <DueFields step={step} number={index + 1} update={(change) => update(step.key, change)} />
                  </>
                ) : step.type === "sign" ? (
                  <>
                    <Input
                      label={`Step ${index + 1} signers`}
                      description="Name and e-mail address of each signer, separated by semicolons: Sam Signer <sam@example.com>. They need no account. The document (a PDF) is sent from your e-signatures with a signature box for each on its last page; the signed copy goes on to the next steps."
                      value={step.signers}
                      onChange={(event) => update(step.key, { signers: event.target.value })}
                      placeholder="Sam Signer <sam@example.com>"
                    />
                    <DueFields step={step} number={index + 1} update={(change) => update(step.key, change)} />
                  </>
                ) : step.type === "case" ? (
                  <label className="block text-sm text-slate-900">
                    Step {index + 1}: case type
                    <select className={nativeSelectClassName} value={step.caseTypeId} onChange={(event) => update(step.key, { caseTypeId: event.target.value })}>
                      {caseTypes.map((type) => (
                        <option key={type.id} value={type.id}>
                          {type.name}
                        </option>
                      ))}
                    </select>
                    <span className="mt-1 block text-xs text-slate-600">
                      {isRoom
                        ? "A new case of this type opens in the data room, titled by the document's name: its case file is a folder at the top of the room, the document moves into it, and the room's audit log records the case."
                        : "A new case of this type opens, titled by the document's name; the document moves into its case file, and the case's timeline shows this run."}
                    </span>
                  </label>
                ) : step.type === "form" ? (
                  <>
                    <StepKindFields step={step} number={index + 1} folders={stepFolders} forms={forms} update={(change) => update(step.key, change)} />
                    <DueFields step={step} number={index + 1} update={(change) => update(step.key, change)} />
                  </>
                ) : step.type !== "move" ? (
                  <StepKindFields step={step} number={index + 1} folders={stepFolders} forms={forms} earlier={steps.slice(0, index).map((before) => before.name)} update={(change) => update(step.key, change)} />
                ) : (
                  <label className="block text-sm text-slate-900">
                    Step {index + 1}: move into
                    <select className={nativeSelectClassName} value={step.folderId} onChange={(event) => update(step.key, { folderId: event.target.value })}>
                      {stepFolders.map((folder) => (
                        <option key={folder.id} value={folder.id}>
                          {folder.path}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
                <div className="flex flex-wrap gap-2">
                  <Button type="button" variant="ghost" size="sm" disabled={index === 0} onClick={() => moveStep(index, -1)} aria-label={`Move step ${index + 1} up`}>
                    Up
                  </Button>
                  <Button type="button" variant="ghost" size="sm" disabled={index === steps.length - 1} onClick={() => moveStep(index, 1)} aria-label={`Move step ${index + 1} down`}>
                    Down
                  </Button>
                  <Button type="button" variant="ghost" size="sm" disabled={steps.length === 1} onClick={() => setSteps((current) => current.filter((entry) => entry.key !== step.key))} aria-label={`Remove step ${index + 1}`}>
                    Remove
                  </Button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <div className="space-y-2" role="group" aria-label="Add a step">
          {STEP_GROUPS.map((group) => (
            <div key={group.label} className="flex flex-wrap items-center gap-2">
              <span className="w-28 text-sm font-medium text-slate-700">{group.label}</span>
              {group.kinds
                .filter((kind) => (kind !== "case" || caseTypes.length > 0) && (kind !== "form" || forms.length > 0) && (kind !== "back" || steps.length > 0))
                .map((kind) => (
                  <Button key={kind} type="button" variant="secondary" size="sm" disabled={steps.length >= WORKFLOW_STEPS_MAX} onClick={() => addStep(kind)}>
                    {STEP_KINDS[kind].add}
                  </Button>
                ))}
            </div>
          ))}
        </div>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Saving…" : "Save workflow"}
        </Button>
      </Form>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

/** A human step's optional due time and what happens once when it passes (an approval, a form to fill in, a signature). */
function DueFields({ step, number, update }: { step: DraftStep; number: number; update: (change: Partial<DraftStep>) => void }) {
  const isForm = step.type === "form";
  const labels: Partial<Record<Escalation, string>> = isForm ? FORM_ESCALATION_LABELS : step.type === "sign" ? SIGN_ESCALATION_LABELS : ESCALATION_LABELS;
  const waitsFor = isForm ? "no answer has come" : step.type === "sign" ? "not everyone has signed" : "nobody has decided";
  return (
    <>
      <Input
        label={`Step ${number} due in (days)`}
        description={`Optional. When ${waitsFor} by then, the escalation below happens once.`}
        type="number"
        min={0.5}
        max={364}
        step={0.5}
        value={step.dueDays}
        onChange={(event) => update({ dueDays: event.target.value })}
      />
      {step.dueDays.trim() ? (
        <>
          <label className="block text-sm text-slate-900">
            Step {number}: when overdue
            <select className={nativeSelectClassName} value={step.escalation} onChange={(event) => update({ escalation: event.target.value as Escalation })}>
              {(Object.keys(labels) as Escalation[]).map((escalation) => (
                <option key={escalation} value={escalation}>
                  {labels[escalation]}
                </option>
              ))}
            </select>
          </label>
          {step.escalation === "reassign" ? (
            <Input
              label={isForm ? `Step ${number}: ask instead (e-mail)` : `Step ${number}: hand it to (e-mail)`}
              description={isForm ? "They need no account. The first answer from either of them moves the run on." : undefined}
              type="email"
              value={step.reassignTo}
              onChange={(event) => update({ reassignTo: event.target.value })}
              required
            />
          ) : null}
        </>
      ) : null}
    </>
  );
}

/** Whether a step before decides a path a later step may follow: an approval, a signature, or a form whose escalation takes a path. */
const decidesPath = (step: DraftStep) => step.type === "approve" || step.type === "sign" || (step.type === "form" && step.dueDays.trim() !== "" && (step.escalation === "approve" || step.escalation === "reject"));
