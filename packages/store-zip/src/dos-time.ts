/**
 * MS-DOS date and time, as zip stores modification times: local time, years 1980 to 2107, even
 * seconds. zipfile writes `time.localtime()`; so do we, clamping dates outside the range.
 */
export function toDosDateTime(date: Date): { dosDate: number; dosTime: number } {
  let year = date.getFullYear();
  let [month, day, hours, minutes, seconds] = [
    date.getMonth() + 1,
    date.getDate(),
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
  ];
  if (year < 1980) [year, month, day, hours, minutes, seconds] = [1980, 1, 1, 0, 0, 0];
  else if (year > 2107) [year, month, day, hours, minutes, seconds] = [2107, 12, 31, 23, 59, 58];
  return {
    dosDate: ((year - 1980) << 9) | (month << 5) | day,
    dosTime: (hours << 11) | (minutes << 5) | (seconds >> 1),
  };
}

export function fromDosDateTime(dosDate: number, dosTime: number): Date {
  return new Date(
    (dosDate >> 9) + 1980,
    ((dosDate >> 5) & 0xf) - 1,
    dosDate & 0x1f,
    dosTime >> 11,
    (dosTime >> 5) & 0x3f,
    (dosTime & 0x1f) * 2,
  );
}
