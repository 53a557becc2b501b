// The service validates bodies with zod 3 and answers its issue list (E2). Our schemas are zod 4: this turns
// their issues into the zod 3 shapes and messages a client of the service parses.
import type { z } from 'zod'
import { IssueListError, type ServiceIssue } from './sandbox-error.ts'

/** One zod 4 issue in zod 3's shape (code, message and the fields zod 3 put beside them). */
export function zod3Issue(issue: z.core.$ZodIssue): ServiceIssue {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  switch (issue.code) {
    case 'invalid_type': {
      // zod 4 names what it received in its message ("… received undefined"); zod 3 had it as a field
      const got = /received (\w+)/.exec(issue.message)?.[1] ?? 'undefined'
      return {
        code: 'invalid_type',
        expected: issue.expected,
        received: got,
        path,
        message: got === 'undefined' ? 'Required' : `Expected ${issue.expected}, received ${got}`,
      }
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small'
      const bound = Number(small ? issue.minimum : issue.maximum)
      const type = issue.origin === 'string' ? 'string' : issue.origin === 'array' ? 'array' : 'number'
      const word = small ? 'least' : 'most'
      const message =
        type === 'string'
          ? `String must contain at ${word} ${bound} character(s)`
          : type === 'array'
            ? `Array must contain at ${word} ${bound} element(s)`
            : `Number must be ${small ? 'greater' : 'less'} than or equal to ${bound}`
      return {
        code: issue.code,
        [small ? 'minimum' : 'maximum']: bound,
        type,
        inclusive: true,
        exact: false,
        path,
        message,
      }
    }
    case 'invalid_format':
      return {
        validation: issue.format === 'email' ? 'email' : issue.format === 'url' ? 'url' : 'regex',
        code: 'invalid_string',
        path,
        message: issue.format === 'email' ? 'Invalid email' : issue.message,
      }
    case 'invalid_value':
      return {
        code: 'invalid_enum_value',
        options: issue.values,
        path,
        message: `Invalid enum value. Expected ${issue.values.map((v) => `'${String(v)}'`).join(' | ')}`,
      }
    default:
      return { code: 'custom', path, message: issue.message }
  }
}

/** An `onInvalid` for routes of the service's zod 3 family: 400 with the issue list. */
export function zod3Invalid(issues: z.core.$ZodIssue[]): IssueListError {
  return new IssueListError(issues.map((issue) => zod3Issue(issue)))
}
