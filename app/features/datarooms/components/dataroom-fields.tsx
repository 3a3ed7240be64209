import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FieldErrors } from "~/lib/errors";
import { DATAROOM_DESCRIPTION_MAX, DATAROOM_NAME_MAX } from "../datarooms.schema";

/** A room's name and description, as the create form and the profile page ask for them. */
export function DataroomFields({ values, errors, rows = 2 }: { values?: { name?: string; description?: string }; errors?: FieldErrors; rows?: number }) {
  return (
    <>
      <Input label="Name" name="name" required maxLength={DATAROOM_NAME_MAX} defaultValue={values?.name} error={errors?.name?.[0]} autoComplete="off" />
      <Textarea
        label="Description"
        name="description"
        maxLength={DATAROOM_DESCRIPTION_MAX}
        defaultValue={values?.description}
        error={errors?.description?.[0]}
        rows={rows}
      />
    </>
  );
}
